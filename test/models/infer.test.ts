// Models users name today (issue 22, item 3): a name the catalog lacks is read by its family or
// provider as a documented model, with one warning per name and `stats().modelInferredFrom`;
// `strict` keeps the error; an AI SDK model object works wherever a model name does; the
// gpt-5 family's input limit bounds the budget.
import { MockLanguageModelV3 } from "ai/test";
import { gateway } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Loom,
  budgetFor,
  countTokens,
  getModelProfile,
  loadTokenizer,
  memoryStore,
  registerModel,
  type ModelProfile,
} from "../../src/index.js";
import { CATALOG } from "../../src/models/catalog.js";
import { withContextWindow } from "../../src/models/profiles.js";
import { expectRejectCode, expectThrowCode, forEachEngine } from "../helpers.js";

afterEach(() => vi.restoreAllMocks());

/** The warnings printed while `fn` runs. */
function warnings(fn: () => unknown): string[] {
  const spy = vi.spyOn(console, "warn").mockImplementation(() => {});
  try {
    fn();
    return spy.mock.calls.map((c) => String(c[0]));
  } finally {
    spy.mockRestore();
  }
}

forEachEngine((engine) => {
  describe("the names users give today resolve at chats.create({ model })", () => {
    const create = async (model: string) => {
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model });
      await chat.append({ role: "user", content: "hello" });
      const built = await chat.buildContext();
      const stats = chat.stats();
      await loom.close();
      return { stats, built };
    };

    it("claude-sonnet-4-6: in the catalog (1M window, from its model page)", async () => {
      const { stats } = await create("claude-sonnet-4-6");
      expect(stats).toMatchObject({ model: "claude-sonnet-4-6", modelInferredFrom: null, contextWindow: 1_000_000 });
    });

    it("anthropic/claude-sonnet-4-6: the provider prefix is dropped", async () => {
      const { stats } = await create("anthropic/claude-sonnet-4-6");
      expect(stats).toMatchObject({ model: "claude-sonnet-4-6", modelInferredFrom: null, contextWindow: 1_000_000 });
    });

    it("gpt-5.1-mini: not an OpenAI id, read as gpt-5-mini by its family (o200k counts, 272,000 of input)", async () => {
      const { stats, built } = await create("gpt-5.1-mini");
      expect(stats).toMatchObject({
        model: "gpt-5.1-mini",
        modelInferredFrom: "gpt-5-mini",
        contextWindow: 400_000,
        counter: "o200k_base",
      });
      expect(built.budget.effective).toBe(272_000);
    });

    it("gemini-3-pro: read as gemini-3-pro-preview by its family", async () => {
      const { stats } = await create("gemini-3-pro");
      expect(stats).toMatchObject({
        model: "gemini-3-pro",
        modelInferredFrom: "gemini-3-pro-preview",
        contextWindow: 1_048_576,
      });
    });

    it("openai/gpt-5.2: in the catalog, its input limit apart from its window", async () => {
      const { stats, built } = await create("openai/gpt-5.2");
      expect(stats).toMatchObject({ model: "gpt-5.2", modelInferredFrom: null, contextWindow: 400_000 });
      expect(built.budget).toMatchObject({ window: 400_000, effective: 272_000 });
    });
  });

  describe("strict", () => {
    it("Loom.open({ strictModels: true }) keeps UNKNOWN_MODEL at create and at buildContext({ model }), creating nothing", async () => {
      const loom = await Loom.open({ engine, strictModels: true });
      const chats = loom.user("u");
      await expectRejectCode(() => chats.create({ model: "gpt-5.1-mini" }), "UNKNOWN_MODEL");
      expect(await chats.list()).toEqual([]);
      const chat = await chats.create({ model: "claude-sonnet-4-6" }); // known names work as ever
      await chat.append({ role: "user", content: "hi" });
      await expectRejectCode(() => chat.buildContext({ model: "gemini-3-pro" }), "UNKNOWN_MODEL");
      expect(chat.messageCount).toBe(1);
      await loom.close();
    });

    it("a chat created with an inferred name reopens by that name; a strict Loom refuses to open it", async () => {
      const store = memoryStore();
      const loom = await Loom.open({ engine, store });
      const chat = await loom.user("u").create({ model: "anthropic/my-house-model" });
      expect(chat.stats()).toMatchObject({ model: "anthropic/my-house-model", modelInferredFrom: "claude-sonnet-4-5" });
      await chat.append({ role: "user", content: "kept" });
      const again = await (await Loom.open({ engine, store })).user("u").open(chat.id);
      expect(again.stats()).toMatchObject({
        model: "anthropic/my-house-model",
        modelInferredFrom: "claude-sonnet-4-5",
        contextWindow: 200_000,
      });
      await expectRejectCode(
        async () => (await Loom.open({ engine, store, strictModels: true })).user("u").open(chat.id),
        "UNKNOWN_MODEL",
      );
      await loom.close();
    });
  });

  describe("an AI SDK model object is accepted wherever a model name is", () => {
    it("create, buildContext, budgetFor, getModelProfile, countTokens and loadTokenizer", async () => {
      const claude = new MockLanguageModelV3({ provider: "anthropic.messages", modelId: "claude-sonnet-4-6" });
      const gpt = gateway("openai/gpt-5.2"); // the AI SDK's own gateway model: provider "gateway", modelId "openai/gpt-5.2"
      expect(getModelProfile(claude)).toBe(getModelProfile("claude-sonnet-4-6"));
      expect(getModelProfile(gpt)).toBe(getModelProfile("gpt-5.2"));
      expect(budgetFor(gpt)).toEqual(budgetFor("gpt-5.2"));
      await loadTokenizer(gpt);
      const messages = [{ role: "user", content: "Hello, world!" }];
      expect(countTokens(messages, { model: gpt })).toBe(countTokens(messages, { model: "gpt-5.2" }));
      const loom = await Loom.open({ engine });
      const chat = await loom.user("u").create({ model: claude });
      expect(chat.stats()).toMatchObject({ model: "claude-sonnet-4-6", contextWindow: 1_000_000 });
      expect((await loom.user("u").list())[0]!.model).toBe("claude-sonnet-4-6");
      await chat.append({ role: "user", content: "hi" });
      expect((await chat.buildContext({ model: gpt })).budget).toEqual(budgetFor("gpt-5.2"));
      await loom.close();
    });

    it("a modelId the catalog lacks is read by its family, or by the model's provider", () => {
      const mini = new MockLanguageModelV3({ provider: "openai.responses", modelId: "gpt-5.1-mini" });
      const house = new MockLanguageModelV3({ provider: "vertex.anthropic.messages", modelId: "house-model" });
      const azure = new MockLanguageModelV3({ provider: "azure.chat", modelId: "my-deployment" });
      warnings(() => {
        expect(getModelProfile(mini)).toMatchObject({ name: "gpt-5.1-mini", inferredFrom: "gpt-5-mini" });
        expect(getModelProfile(house)).toMatchObject({
          name: "anthropic/house-model",
          inferredFrom: "claude-sonnet-4-5",
        });
        expect(getModelProfile(azure)).toMatchObject({ name: "openai/my-deployment", inferredFrom: "gpt-4o" });
      });
      expectThrowCode(() => getModelProfile(mini, { strict: true }), "UNKNOWN_MODEL");
      expectThrowCode(
        () => getModelProfile(new MockLanguageModelV3({ provider: "acme.chat", modelId: "house-model" })),
        "UNKNOWN_MODEL",
      );
    });
  });
});

describe("reading names by their family", () => {
  it("each family reads as a documented member; names of no family stay unknown", () => {
    const cases: [string, string][] = [
      ["gpt-5.3", "gpt-5"],
      ["gpt-5.3-chat-latest", "gpt-5-chat-latest"],
      ["gpt-5.2-nano", "gpt-5-nano"],
      ["gpt-5.3-codex", "gpt-5-codex"],
      ["gpt-5.5-pro", "gpt-5-pro"],
      ["gpt-6", "gpt-5"],
      ["gpt-4.1-2025-09-09-ft", "gpt-4.1"],
      ["gpt-4-vision-preview", "gpt-4-turbo"],
      ["o5-mini", "o3"],
      ["o1-mini-high", "o1-mini"],
      ["claude-opus-5", "claude-opus-4-5"],
      ["claude-3-opus-latest-beta", "claude-opus-4-5"],
      ["claude-haiku-5", "claude-haiku-4-5"],
      ["claude-sonnet-4-7", "claude-sonnet-4-5"],
      ["gemini-3.5-flash", "gemini-3-pro-preview"],
      ["gemini-2.5-flash-image", "gemini-2.5-flash"],
      ["gemini-1.5-pro-002-exp", "gemini-1.5-pro"],
      ["grok-4-1-fast-reasoning", "grok-4-fast"],
      ["grok-3-fast", "grok-3"],
      ["grok-5", "grok-4"],
      ["llama-3.3-8b-instruct", "llama-3.1-8b-instruct"],
      ["llama-4-scout-17b-16e", "llama-4-scout-17b-16e-instruct"],
      ["qwen3-14b", "qwen3-8b"],
      ["qwen3-30b-a3b-instruct-2507", "qwen3-235b-a22b-instruct-2507"],
      ["qwen2.5-coder-32b-instruct", "qwen2.5-7b-instruct"],
      ["qwen-max", "qwen3-8b"],
      ["mistral-large-3", "mistral-large"],
      ["mistral-tiny", "mistral-small"],
      ["deepseek-v4", "deepseek-chat"],
      ["deepseek-r1-distill-llama-70b", "deepseek-r1"],
      ["ft:gpt-4o-mini-2024-07-18:acme::abc123", "gpt-4o"],
      ["openrouter/x-ai/grok-4.20", "grok-4"],
    ];
    warnings(() => {
      for (const [id, from] of cases) {
        const profile = getModelProfile(id);
        expect(profile.inferredFrom, id).toBe(from);
        const base = getModelProfile(from);
        expect({ ...profile, name: base.name, inferredFrom: undefined }, id).toEqual({
          ...base,
          inferredFrom: undefined,
        });
      }
    });
    for (const id of ["no-such-model", "llama-2-7b-chat", "olmo-2-7b", "my-finetune"])
      expectThrowCode(() => getModelProfile(id), "UNKNOWN_MODEL");
  });

  it("one warning per name, naming the model it is read as and how to describe it; none for known names", () => {
    const first = warnings(() => {
      getModelProfile("claude-opus-9");
      getModelProfile("anthropic/claude-opus-9");
      budgetFor("claude-opus-9");
    });
    expect(first).toHaveLength(1);
    expect(first[0]).toContain('"claude-opus-9"');
    expect(first[0]).toContain("claude-opus-4-5");
    expect(first[0]).toContain("strict");
    expect(warnings(() => getModelProfile("claude-opus-10"))).toHaveLength(1);
    expect(warnings(() => getModelProfile("claude-opus-9"))).toEqual([]);
    expect(warnings(() => getModelProfile("claude-sonnet-4-6"))).toEqual([]);
  });

  it("a registered profile wins over the family's reading", () => {
    warnings(() => expect(getModelProfile("grok-7").inferredFrom).toBe("grok-4"));
    registerModel({ name: "grok-7", contextWindow: 500_000 });
    expect(getModelProfile("grok-7")).toMatchObject({ name: "grok-7", contextWindow: 500_000 });
    expect(getModelProfile("grok-7").inferredFrom).toBeUndefined();
  });

  it("bad options and model objects are INVALID_ARGUMENT", async () => {
    expectThrowCode(() => getModelProfile("gpt-4o", { strict: "yes" } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => getModelProfile("gpt-4o", { strikt: true } as never), "INVALID_ARGUMENT");
    expectThrowCode(() => getModelProfile("gpt-4o", null as never), "INVALID_ARGUMENT");
    expectThrowCode(() => getModelProfile({ provider: "openai.chat", modelId: "" }), "INVALID_ARGUMENT");
    expectThrowCode(
      () => getModelProfile({ name: "x", contextWindow: 1_000, maxInputTokens: 2_000 }),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(
      () => getModelProfile({ name: "x", contextWindow: 1_000, maxInputTokens: 500.5 }),
      "INVALID_ARGUMENT",
    );
    expectThrowCode(() => getModelProfile({ name: "x", contextWindow: 1_000, inferredFrom: "" }), "INVALID_ARGUMENT");
    await expectRejectCode(() => Loom.open({ strictModels: 1 as never }), "INVALID_ARGUMENT");
  });
});

describe("input limits apart from windows", () => {
  it("the gpt-5 family: a 400,000 window of which input may use 272,000; the budget gives no more", () => {
    for (const name of ["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-codex", "gpt-5.1", "gpt-5.1-codex", "gpt-5.2"]) {
      expect(getModelProfile(name), name).toMatchObject({ contextWindow: 400_000, maxInputTokens: 272_000 });
      const budget = budgetFor(name);
      expect(budget.effective, name).toBe(272_000); // 90% of the window would be 360,000: refused by the API
      expect(budget.system + budget.memory + budget.conversation + budget.input + budget.reserve).toBe(272_000);
    }
    expect(budgetFor("gpt-5", { effectiveFraction: 0.5 }).effective).toBe(200_000); // below the limit, the fraction rules
  });

  it("every catalog entry's budget stays within its input limit, which is below its window, and each names its source", () => {
    for (const entry of CATALOG) {
      const budget = budgetFor(entry.name);
      expect(budget.effective, entry.name).toBeLessThanOrEqual(entry.maxInputTokens ?? entry.contextWindow);
      if (entry.maxInputTokens !== undefined)
        expect(entry.maxInputTokens, entry.name).toBeLessThan(entry.contextWindow);
      expect(entry.source, entry.name).toMatch(/^[a-z0-9.-]+\.[a-z]+\//);
    }
  });

  forEachEngine((engine) => {
    it("a gpt-5 chat's request never carries more than 272,000 tokens: a larger message is refused", async () => {
      const loom = await Loom.open({ engine, counter: "heuristic" });
      const chat = await loom.user("u").create({ model: "gpt-5" });
      // 1,200,000 characters at 4 a token: 300,003 tokens with the message's overhead, under 90% of 400,000.
      await expectRejectCode(() => chat.append({ role: "user", content: "abcd".repeat(300_000) }), "MESSAGE_TOO_LARGE");
      expect(chat.messageCount).toBe(0);
      await chat.append({ role: "user", content: "abcd".repeat(60_000) });
      const built = await chat.buildContext();
      expect(built.usage.limit).toBeLessThanOrEqual(272_000);
      await loom.close();
    });
  });

  it("a profile by hand may state an input limit", () => {
    const p: ModelProfile = getModelProfile({ name: "split-model", contextWindow: 100_000, maxInputTokens: 60_000 });
    expect(budgetFor(p).effective).toBe(60_000);
    expect(budgetFor({ name: "split-model", contextWindow: 100_000, maxInputTokens: 95_000 }).effective).toBe(90_000);
  });
});

describe("a window given by hand (the command's --context-window)", () => {
  it("keeps a known or family-read model's counting, sets the window, and describes an unknown name", () => {
    expect(withContextWindow("gpt-5", 128_000)).toMatchObject({
      name: "gpt-5",
      contextWindow: 128_000,
      encoding: "o200k_base",
      sizeClass: "xlarge",
    });
    expect(withContextWindow("gpt-5", 128_000).maxInputTokens).toBeUndefined(); // the window is below the input limit
    expect(withContextWindow("gpt-5", 1_000_000).maxInputTokens).toBe(272_000);
    expect(
      warnings(() =>
        expect(withContextWindow("gpt-5.9", 64_000)).toMatchObject({
          name: "gpt-5.9",
          contextWindow: 64_000,
          encoding: "o200k_base",
        }),
      ),
    ).toEqual([]);
    expect(withContextWindow("my-llm", 8_192)).toMatchObject({
      name: "my-llm",
      contextWindow: 8_192,
      sizeClass: "small",
      tokensPerChar: 0.25,
    });
    expectThrowCode(() => withContextWindow("my-llm", 0), "INVALID_ARGUMENT");
  });
});
