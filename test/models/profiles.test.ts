// Model profiles (issue 3, point 2; seed 001): exact and longest-prefix lookup, UNKNOWN_MODEL
// with close matches, custom profiles anywhere a name is, registerModel, seed 001's six models,
// size classes and history-limit table.
import { describe, expect, it } from "vitest";
import {
  Loom,
  getModelProfile,
  listModels,
  memoryStore,
  registerModel,
  CtxloomError,
  type ModelProfile,
} from "../../src/index.js";
import { HISTORY_LIMITS } from "../../src/models/profiles.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";

describe("getModelProfile", () => {
  it("seed 001's six models, with its windows, size classes and tokens per char", () => {
    const table = [
      ["llama3.2", 8_192, "small", 0.28],
      ["llama3.2:1b", 8_192, "tiny", 0.28],
      ["llama3.1:8b", 32_768, "medium", 0.28],
      ["gemma2:9b", 8_192, "medium", 0.3],
      ["gemini-2.0-flash", 1_048_576, "xlarge", 0.25],
      ["gpt-4o", 128_000, "xlarge", 0.25],
    ] as const;
    for (const [name, contextWindow, sizeClass, tokensPerChar] of table) {
      const p = getModelProfile(name);
      expect({
        name: p.name,
        contextWindow: p.contextWindow,
        sizeClass: p.sizeClass,
        tokensPerChar: p.tokensPerChar,
      }).toEqual({
        name,
        contextWindow,
        sizeClass,
        tokensPerChar,
      });
    }
    expect(getModelProfile("gpt-4o").encoding).toBe("o200k_base");
    expect(getModelProfile("llama3.2").encoding).toBe("llama3"); // exact once its tokenizer file is registered (issue 37)
  });

  it("seed 001's history-limit table, by size class", () => {
    expect(HISTORY_LIMITS).toEqual({
      tiny: { maxTurns: 3, maxCharsPerTurn: 100, memoryMaxChars: 300 },
      small: { maxTurns: 5, maxCharsPerTurn: 150, memoryMaxChars: 400 },
      medium: { maxTurns: 10, maxCharsPerTurn: 300, memoryMaxChars: 600 },
      large: { maxTurns: 20, maxCharsPerTurn: 500, memoryMaxChars: 1000 },
      xlarge: { maxTurns: 50, maxCharsPerTurn: 1000, memoryMaxChars: 2000 },
    });
  });

  it("the current families are known, with an encoding for OpenAI models", () => {
    for (const name of ["gpt-4.1", "gpt-5", "o3", "o4-mini", "gpt-4o-mini", "gpt-4", "gpt-3.5-turbo"]) {
      expect(["o200k_base", "cl100k_base"]).toContain(getModelProfile(name).encoding);
    }
    expect(getModelProfile("gpt-4").encoding).toBe("cl100k_base");
    expect(getModelProfile("gpt-4.1").encoding).toBe("o200k_base");
    for (const name of [
      "claude-sonnet-4",
      "gemini-2.5-pro",
      "llama-3.1-8b-instruct",
      "qwen2.5-7b-instruct",
      "mistral-large-latest",
    ]) {
      const p = getModelProfile(name);
      expect(p.name).toBe(name);
      expect(p.contextWindow).toBeGreaterThanOrEqual(8_192);
    }
    for (const name of listModels()) {
      const p = getModelProfile(name);
      expect(Object.keys(HISTORY_LIMITS)).toContain(p.sizeClass);
      expect(p.tokensPerChar).toBeGreaterThan(0);
    }
  });

  it("longest prefix: dated and tagged ids resolve to their family", () => {
    expect(getModelProfile("gpt-4o-2024-08-06").name).toBe("gpt-4o");
    expect(getModelProfile("gpt-4o-mini-2024-07-18").name).toBe("gpt-4o-mini"); // longer than gpt-4o
    expect(getModelProfile("llama3.2:3b").name).toBe("llama3.2");
    expect(getModelProfile("llama3.2:1b").name).toBe("llama3.2:1b"); // exact wins
    expect(getModelProfile("gpt-4-0613").name).toBe("gpt-4");
    expect(getModelProfile("claude-sonnet-4-5-20250929").name).toBe("claude-sonnet-4-5");
  });

  it("a prefix must end at a separator: gpt-4oz is not gpt-4o (only read as it by its family, and refused when strict)", () => {
    expectThrowCode(() => getModelProfile("gpt-4oz", { strict: true }), "UNKNOWN_MODEL");
    expect(getModelProfile("gpt-4oz")).toMatchObject({ name: "gpt-4oz", inferredFrom: "gpt-4o" });
  });

  it("UNKNOWN_MODEL names close matches and says what to do", () => {
    let error: unknown;
    try {
      getModelProfile("gtp-4o");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CtxloomError);
    expect((error as CtxloomError).code).toBe("UNKNOWN_MODEL");
    const message = (error as CtxloomError).message;
    expect(message).toContain("gpt-4o");
    expect(message).toContain("registerModel");
    expect(message).toMatch(/close matches/i);
  });

  it("bad names -> INVALID_ARGUMENT", () => {
    for (const bad of ["", 42, null, undefined, ["gpt-4o"]])
      expectThrowCode(() => getModelProfile(bad as never), "INVALID_ARGUMENT");
  });

  it("a profile object is checked and accepted as is", () => {
    const profile: ModelProfile = { name: "my-model", contextWindow: 4_096, sizeClass: "tiny", tokensPerChar: 0.3 };
    const p = getModelProfile(profile);
    expect(p).toMatchObject(profile);
    expect(Object.isFrozen(p)).toBe(true);
    expectThrowCode(() => getModelProfile("my-model"), "UNKNOWN_MODEL"); // not registered by use
  });

  it("bad profiles -> INVALID_ARGUMENT", () => {
    const good: ModelProfile = { name: "ok", contextWindow: 1_000, sizeClass: "small", tokensPerChar: 0.25 };
    const bad: Partial<Record<keyof ModelProfile, unknown>>[] = [
      { name: "" },
      { name: 7 },
      { contextWindow: 0 },
      { contextWindow: 10.5 },
      { contextWindow: -1 },
      { contextWindow: "8k" },
      { sizeClass: "huge" },
      { tokensPerChar: 0 },
      { tokensPerChar: -1 },
      { tokensPerChar: Number.NaN },
      { encoding: "p50k_base" },
      { counter: { count: 3 } },
      { historyLimits: { maxTurns: 0, maxCharsPerTurn: 1, memoryMaxChars: 1 } },
      { historyLimits: { maxTurns: 2 } },
    ];
    for (const change of bad) {
      expectThrowCode(() => getModelProfile({ ...good, ...change } as ModelProfile), "INVALID_ARGUMENT");
      expectThrowCode(
        () =>
          registerModel({
            ...good,
            ...change,
            name: typeof change.name === "undefined" ? "bad-one" : change.name,
          } as ModelProfile),
        "INVALID_ARGUMENT",
      );
    }
    expect(listModels()).not.toContain("bad-one");
  });
});

describe("registerModel", () => {
  it("adds a name usable anywhere, including by prefix, and replaces an existing one", () => {
    const p = registerModel({ name: "acme-7b", contextWindow: 16_384, sizeClass: "medium", tokensPerChar: 0.27 });
    expect(getModelProfile("acme-7b")).toEqual(p);
    expect(getModelProfile("acme-7b:q4").name).toBe("acme-7b");
    expect(listModels()).toContain("acme-7b");
    registerModel({ name: "acme-7b", contextWindow: 32_768, sizeClass: "large", tokensPerChar: 0.27 });
    expect(getModelProfile("acme-7b").contextWindow).toBe(32_768);
  });
});

forEachEngine((engine) => {
  describe("custom profiles anywhere a name is", () => {
    const custom: ModelProfile = { name: "custom-small", contextWindow: 2_000, sizeClass: "tiny", tokensPerChar: 0.25 };

    it("chats.create({ model: profile }) and buildContext({ model: profile })", async () => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: custom });
      expect(chat.model).toBe("custom-small");
      await chat.append({ role: "user", content: "hello there" });
      const ctx = await chat.buildContext();
      expect(ctx.model).toBe("custom-small");
      expect(ctx.usage.limit).toBe(ctx.budget.effective - ctx.budget.reserve);
      expect(ctx.budget.window).toBe(2_000);
      const other = await chat.buildContext({ model: { ...custom, name: "custom-big", contextWindow: 20_000 } });
      expect(other.model).toBe("custom-big");
      expect(other.budget.window).toBe(20_000);
      expect(chat.stats().contextWindow).toBe(2_000);
      await loom.close();
    });

    it("bad profiles and unknown names are rejected with no chat created", async () => {
      const loom = await Loom.open({ engine });
      const chats = loom.user("u");
      await expectRejectCode(() => chats.create({ model: { ...custom, contextWindow: 3 } }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chats.create({ model: "no-such-model" }), "UNKNOWN_MODEL");
      const chat = await chats.create({ model: custom });
      await chat.append({ role: "user", content: "hi" });
      await expectRejectCode(() => chat.buildContext({ model: "no-such-model" }), "UNKNOWN_MODEL");
      await expectRejectCode(
        () => chat.buildContext({ model: { ...custom, sizeClass: "giant" } as never }),
        "INVALID_ARGUMENT",
      );
      expect((await chats.list()).length).toBe(1);
      await loom.close();
    });

    it("a chat created with a profile object opens again from its store", async () => {
      const store = memoryStore();
      const first = await Loom.open({ engine, store });
      const chat = await first.user("u").create({ model: { ...custom, name: "custom-unregistered" } });
      await chat.append({ role: "user", content: "hi" });
      const second = await Loom.open({ engine, store });
      const again = await second.user("u").open(chat.id);
      expect(again.model).toBe("custom-unregistered");
      expect(again.path().length).toBe(1);
    });
  });
});
