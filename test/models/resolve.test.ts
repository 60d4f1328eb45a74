// Model ids (issue 7, item 4): a prefix only crosses a version boundary; provider-prefixed
// ids resolve; the catalog covers the current families with a source each; an unknown
// model's error says how to describe it; bad arguments are CtxloomErrors, never TypeErrors.
import { describe, expect, it } from "vitest";
import {
  budgetFor,
  getModelProfile,
  listModels,
  loadTokenizer,
  registerModel,
  countTokens,
  Loom,
  type ModelInput,
} from "../../src/index.js";
import { CATALOG } from "../../src/models/catalog.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";

describe("version boundaries", () => {
  it("another model's name is not its prefix's: gpt-4.5-preview is not gpt-4, o1-preview is not o1", () => {
    expect(getModelProfile("gpt-4.5-preview").name).toBe("gpt-4.5-preview");
    expect(getModelProfile("gpt-4.5-preview").contextWindow).toBe(128_000);
    expect(getModelProfile("o1-preview").name).toBe("o1-preview");
    expect(getModelProfile("gpt-4-0125-preview").name).toBe("gpt-4-0125-preview");
    // Not a catalog name: refused when strict, else read by its family (never as a prefix's model by mistake).
    for (const id of [
      "gpt-4.7",
      "gpt-4-vision",
      "o1-ultra",
      "claude-sonnet-4-7",
      "gemini-2.5-pro-max",
      "gpt-4o-audio",
    ]) {
      expectThrowCode(() => getModelProfile(id, { strict: true }), "UNKNOWN_MODEL");
      expect(getModelProfile(id).inferredFrom, id).toBeDefined();
    }
  });

  it("dates, snapshots, -latest, Bedrock versions and Ollama tags are crossed", () => {
    const cases: [string, string][] = [
      ["gpt-4o-2024-08-06", "gpt-4o"],
      ["gpt-4-0613", "gpt-4"],
      ["gpt-5-2025-08-07", "gpt-5"],
      ["gpt-5-mini-2025-08-07", "gpt-5-mini"],
      ["gpt-4.1-2025-04-14", "gpt-4.1"],
      ["o3-2025-04-16", "o3"],
      ["o4-mini-2025-04-16", "o4-mini"],
      ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5"],
      ["claude-3-7-sonnet-latest", "claude-3-7-sonnet"],
      ["mistral-large-2411", "mistral-large"],
      ["codestral-2508", "codestral"],
      ["grok-4-0709", "grok-4"],
      ["llama3.2:3b", "llama3.2"],
    ];
    for (const [id, name] of cases) expect(getModelProfile(id).name, id).toBe(name);
  });

  it("provider-prefixed ids resolve: OpenRouter, Bedrock, Vertex, Hugging Face", () => {
    const cases: [string, string][] = [
      ["openai/gpt-4o", "gpt-4o"],
      ["openai/gpt-5.1", "gpt-5.1"],
      ["anthropic/claude-sonnet-4-5", "claude-sonnet-4-5"],
      ["anthropic/claude-sonnet-4.5", "claude-sonnet-4-5"],
      ["anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet"],
      ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5"],
      ["anthropic.claude-haiku-4-5-20251001-v1:0", "claude-haiku-4-5"],
      ["claude-sonnet-4-5@20250929", "claude-sonnet-4-5"],
      ["claude-opus-4-1@20250805", "claude-opus-4-1"],
      ["google/gemini-2.5-pro", "gemini-2.5-pro"],
      ["models/gemini-2.5-flash", "gemini-2.5-flash"],
      ["x-ai/grok-4", "grok-4"],
      ["deepseek/deepseek-chat", "deepseek-chat"],
      ["meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b-instruct"],
      ["Qwen/Qwen2.5-72B-Instruct", "qwen2.5-72b-instruct"],
      ["mistralai/codestral-2508", "codestral"],
    ];
    for (const [id, name] of cases) expect(getModelProfile(id).name, id).toBe(name);
  });
});

describe("catalog", () => {
  it("covers the current families, each entry with its source", () => {
    const names = new Set(CATALOG.map((e) => e.name));
    for (const name of [
      "gpt-5",
      "gpt-5-mini",
      "gpt-5.1",
      "gpt-4.1",
      "o3",
      "o4-mini",
      "claude-opus-4-5",
      "claude-sonnet-4-5",
      "claude-haiku-4-5",
      "gemini-2.5-pro",
      "gemini-3-pro-preview",
      "grok-3",
      "grok-4",
      "deepseek-chat",
      "deepseek-reasoner",
      "llama-3.3-70b-instruct",
      "llama-4-scout-17b-16e-instruct",
      "qwen2.5-7b-instruct",
      "qwen3-32b",
      "mistral-large-latest",
      "mistral-small-latest",
      "codestral",
    ])
      expect(names.has(name), name).toBe(true);
    for (const e of CATALOG) {
      expect(e.source, e.name).toMatch(/^[a-z0-9.-]+\.[a-z]+\//);
      expect(listModels()).toContain(e.name);
    }
    expect(getModelProfile("gpt-5.1").encoding).toBe("o200k_base");
    expect(getModelProfile("gpt-5").contextWindow).toBe(400_000);
  });
});

describe("describing a model by hand", () => {
  it("UNKNOWN_MODEL says to pass { name, contextWindow }, and that is enough", () => {
    let message = "";
    try {
      getModelProfile("my-llm-v9");
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('{ name: "my-llm-v9", contextWindow:');
    const p = getModelProfile({ name: "my-llm-v9", contextWindow: 20_000 });
    expect(p).toMatchObject({ name: "my-llm-v9", contextWindow: 20_000, sizeClass: "medium", tokensPerChar: 0.25 });
    expect(budgetFor({ name: "my-llm-v9", contextWindow: 20_000 }).effective).toBe(18_000);
    expect(registerModel({ name: "my-llm-v10", contextWindow: 8_000 }).sizeClass).toBe("small");
  });

  it("bad arguments are CtxloomErrors, never TypeErrors", async () => {
    expectThrowCode(() => budgetFor("gpt-4o", null as never), "INVALID_ARGUMENT");
    expectThrowCode(() => budgetFor("gpt-4o", 3 as never), "INVALID_ARGUMENT");
    expectThrowCode(() => budgetFor("gpt-4o", { budget: [] as never }), "INVALID_ARGUMENT");
    expectThrowCode(() => registerModel(null as never), "INVALID_ARGUMENT");
    expectThrowCode(() => registerModel(undefined as never), "INVALID_ARGUMENT");
    expectThrowCode(() => registerModel([] as never), "INVALID_ARGUMENT");
    expectThrowCode(
      () => getModelProfile({ name: "x", contextWindow: 100, counter: null } as never),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(() => countTokens([], null as never), "INVALID_ARGUMENT");
    await expectRejectCode(() => loadTokenizer(null as never), "INVALID_ARGUMENT");
  });
});

describe("unknown option keys name the closest known one", () => {
  const hint = (fn: () => unknown, key: string, near: string) => {
    let message = "";
    try {
      fn();
    } catch (e) {
      expectThrowCode(() => {
        throw e;
      }, "INVALID_ARGUMENT");
      message = (e as Error).message;
    }
    expect(message).toContain(JSON.stringify(key));
    expect(message).toContain(JSON.stringify(near));
  };
  it("budgetFor, getModelProfile, registerModel, countTokens, budget and historyLimits fields", async () => {
    hint(() => budgetFor("gpt-4o", { budgte: {} } as never), "budgte", "budget");
    hint(() => budgetFor("gpt-4o", { effectivefraction: 0.8 } as never), "effectivefraction", "effectiveFraction");
    hint(() => budgetFor("gpt-4o", { budget: { sytem: 0.25 } as never }), "sytem", "system");
    const bad = { name: "m", contextWindow: 1000, contextWindows: 2 } as ModelInput;
    hint(() => getModelProfile(bad), "contextWindows", "contextWindow");
    hint(
      () => registerModel({ name: "m", contextWindow: 1000, tokensPerChr: 0.3 } as ModelInput),
      "tokensPerChr",
      "tokensPerChar",
    );
    hint(() => countTokens([], { modle: "gpt-4o" } as never), "modle", "model");
    await expectRejectCode(
      () => loadTokenizer({ name: "m", contextWindow: 1000, encodng: "o200k_base" } as never),
      "INVALID_ARGUMENT",
    );
    expect(listModels()).not.toContain("m");
  });
});

forEachEngine((engine) => {
  describe("buildContext options", () => {
    it("an unknown key names the closest option; a malformed model or budget changes nothing", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: "gpt-4o" });
      await chat.append({ role: "user", content: "hi" });
      for (const [key, near] of [
        ["maxMessage", "maxMessages"],
        ["histroyLimits", "historyLimits"],
        ["fromat", "format"],
        ["sytem", "system"],
      ]) {
        let message = "";
        await chat.buildContext({ [key!]: 1 } as never).catch((e: Error) => (message = e.message));
        expect(message).toContain(JSON.stringify(key));
        expect(message).toContain(JSON.stringify(near));
      }
      await expectRejectCode(() => chat.buildContext({ historyLimits: { maxTurn: 2 } as never }), "INVALID_ARGUMENT");
      await expectRejectCode(
        () => chat.buildContext({ model: { name: "x", contextWindow: 500, sizeclass: "tiny" } as never }),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(() => chat.buildContext({ model: "no-such-model" }), "UNKNOWN_MODEL");
      expect((await chat.buildContext({ model: "openai/gpt-4.1" })).budget.window).toBe(1_047_576);
      expect((await chat.buildContext({ model: { name: "small", contextWindow: 1_000 } })).budget.window).toBe(1_000);
      await loom.close();
    });
  });
});
