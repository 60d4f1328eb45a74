// A sweep of bad arguments through the newer public entry points (Loom.open's recall,
// toolResults and maxOpenChats; buildContext's stablePrefix, recall, tools, maxOutputTokens,
// cacheControl and format; chat.recall; chats.import; the stores' options): unknown keys,
// wrong types, NaN, negative and huge numbers. Each throws a CtxloomError with a stable code
// and a message naming what was wrong, and changes nothing.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, expect, it } from "vitest";
import { CtxloomError, Loom, hashingEmbedder, type Chat, type UserChats } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { postgresStore } from "../../src/postgres.js";
import { expectRejectCode, expectThrowCode, forEachEngine, setup, snapshot } from "../helpers.js";

const bad = (value: unknown) => value as never;

/** The error `fn` gives (sync throw or rejection); fails when it gives none. */
async function errorOf(fn: () => unknown): Promise<CtxloomError> {
  try {
    await fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CtxloomError);
    return e as CtxloomError;
  }
  throw new Error("expected a CtxloomError, nothing was thrown");
}

forEachEngine((engine) => {
  let loom: Loom | undefined;
  let chats: UserChats;
  let chat: Chat;
  afterEach(async () => {
    await loom?.close();
    loom = undefined;
  });

  it("Loom.open refuses bad recall, toolResults and maxOpenChats values with INVALID_ARGUMENT", async () => {
    const cases: [string, unknown][] = [
      ["recall", { recall: "yes" }],
      ["recall", { recall: null }],
      ["recall.embedder", { recall: { embedder: "yes" } }],
      ['"embeder"', { recall: { embeder: hashingEmbedder() } }],
      ['"embed"', { embed: true }],
      ['"summarize"', { summarize: true }],
      ['"prompt"', { summaries: { promt: "Summarize." } }],
      ["dimension", { recall: { embedder: { name: "x", dimension: -1, embed: async () => [] } } }],
      ["dimension", { recall: { embedder: { name: "x", dimension: Number.NaN, embed: async () => [] } } }],
      ["dimension", { recall: { embedder: { name: "x", dimension: 1e9, embed: async () => [] } } }],
      ["embedder", { recall: { embedder: { name: "x", dimension: 4 } } }],
      ["non-empty name", { recall: { embedder: { name: "", dimension: 4, embed: async () => [] } } }],
      ["non-empty name", { recall: { embedder: { name: "  ", dimension: 4, embed: async () => [] } } }],
      ["toolResults", { toolResults: 5 }],
      ["toolResults", { toolResults: null }],
      ['"foo"', { toolResults: { foo: 1 } }],
      ["toolResults.truncate", { toolResults: { truncate: "yes" } }],
      ["maxTokens", { toolResults: { truncate: { maxTokens: Number.NaN } } }],
      ["maxTokens", { toolResults: { truncate: { maxTokens: 10 } } }],
      ["maxTokens", { toolResults: { truncate: { maxTokens: 1e12 } } }],
      ["keep", { toolResults: { truncate: { keep: "middle" } } }],
      ['"maxTokens"', { toolResults: { truncate: { maxToken: 100 } } }],
      ["maxOpenChats", { maxOpenChats: -1 }],
      ["maxOpenChats", { maxOpenChats: Number.NaN }],
      ["maxOpenChats", { maxOpenChats: Number.POSITIVE_INFINITY }],
      ["maxOpenChats", { maxOpenChats: "10" }],
      ["maxOpenChats", { maxOpenChats: 2 ** 60 }],
      ['"maxOpenChats"', { maxOpenChat: 3 }],
    ];
    for (const [named, options] of cases) {
      const e = await errorOf(() => Loom.open({ engine, ...(options as object) }));
      expect(e.code, JSON.stringify(options)).toBe("INVALID_ARGUMENT");
      expect(e.message, JSON.stringify(options)).toContain(named);
    }
  });

  it("buildContext refuses bad stablePrefix, recall, tools, maxOutputTokens, cacheControl and format options, and changes nothing", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: "Where is the ferry to Cacilhas?" });
    await chat.append({ role: "assistant", content: "At Cais do Sodré." });
    await chat.buildContext();
    const before = await snapshot(chat, chats);
    const stats = chat.stats();
    const cases: [string, unknown][] = [
      ["stablePrefix", { stablePrefix: "yes" }],
      ["stablePrefix", { stablePrefix: null }],
      ["stablePrefix.step", { stablePrefix: { step: Number.NaN } }],
      ["stablePrefix.step", { stablePrefix: { step: 0.6 } }],
      ["stablePrefix.step", { stablePrefix: { step: -0.1 } }],
      ['"step"', { stablePrefix: { stepp: 0.1 } }],
      ["recall", { recall: "yes" }],
      ["recall", { recall: null }],
      ["prompts", { recall: { prompts: Number.NaN } }],
      ["recent", { recall: { recent: 1.5 } }],
      ["answersPerPrompt", { recall: { answersPerPrompt: -2 } }],
      ["minScore", { recall: { minScore: Number.NaN } }],
      ["query", { recall: { query: 5 } }],
      ['"foo"', { recall: { foo: 1 } }],
      ["tools", { tools: "x" }],
      ["tools.weather", { tools: { weather: "x" } }],
      ["tools[0]", { tools: [null] }],
      ["tools[0]", { tools: [{ type: "function" }] }],
      ["tools[0]", { tools: [{ type: "function", function: { name: 5 } }] }],
      ["parameters", { tools: [{ type: "function", function: { name: "f", parameters: "x" } }] }],
      ["maxOutputTokens", { maxOutputTokens: -1 }],
      ["maxOutputTokens", { maxOutputTokens: Number.NaN }],
      ["maxOutputTokens", { maxOutputTokens: 1e12 }],
      ["maxOutputTokens", { maxOutputTokens: "10" }],
      ["cacheControl", { cacheControl: 1, format: "anthropic" }],
      ["cacheControl", { cacheControl: { ttl: "1h" }, format: "anthropic" }],
      ["format", { format: "xml" }],
      ["format", { format: null }],
      ['"maxMessages"', { maxMessage: 3 }],
    ];
    for (const [named, options] of cases) {
      const e = await errorOf(() => chat.buildContext(bad(options)));
      expect(e.code, JSON.stringify(options)).toBe("INVALID_ARGUMENT");
      expect(e.message, JSON.stringify(options)).toContain(named);
    }
    expect(await snapshot(chat, chats)).toEqual(before);
    expect(chat.stats()).toEqual(stats);
  });

  it("chat.recall refuses bad queries and options, and chats.import bad exports, changing nothing", async () => {
    ({ loom, chats, chat } = await setup(engine));
    await chat.append({ role: "user", content: "My bike is the green one." });
    await chat.append({ role: "assistant", content: "Noted: the green bike." });
    const before = await snapshot(chat, chats);
    const recallStats = loom.stats();
    for (const [query, options] of [
      [5, undefined],
      [null, undefined],
      ["", undefined],
      ["x", null],
      ["x", "chat"],
      ["x", { prompts: -1 }],
      ["x", { scope: "users" }],
      ["x", { minScore: "high" }],
      ["x", { foo: 1 }],
    ] as const) {
      await expectRejectCode(() => chat.recall(bad(query), bad(options)), "INVALID_ARGUMENT");
    }
    const good = chat.export();
    const exports: unknown[] = [
      "not json",
      {},
      null,
      5,
      [good],
      { ...good, version: 99 },
      { ...good, messages: "x" },
      { ...good, head: 99 },
      { ...good, foo: 1 },
      { ...good, messages: good.messages.map((m) => ({ ...m, role: "robot" })) },
      { ...good, messages: good.messages.map((m) => ({ ...m, tokens: 2 ** 40 })) },
      { ...good, messages: good.messages.map((m, i) => ({ ...m, parentId: i === 0 ? 1 : m.parentId })) },
    ];
    for (const data of exports) await expectRejectCode(() => chats.import(bad(data)), "INVALID_ARGUMENT");
    expect(await snapshot(chat, chats)).toEqual(before);
    expect(loom.stats()).toEqual(recallStats);
  });
});

const dir = mkdtempSync(join(tmpdir(), "ctxloom-sweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("sqliteStore refuses bad paths and options with INVALID_ARGUMENT and creates no file", () => {
  const file = join(dir, "never.db");
  const cases: [unknown, unknown][] = [
    [5, undefined],
    ["", undefined],
    [join(dir, "missing", "x.db"), undefined],
    [dir, undefined],
    [file, 5],
    [file, { foo: 1 }],
    [file, { durability: "fast" }],
    [file, { busyTimeoutMs: Number.NaN }],
    [file, { durability: "batched", batchDelayMs: -1 }],
    [file, { durability: "batched", batchDelayMs: 1e12 }],
    [file, { durability: "batched", batchSize: 0 }],
  ];
  for (const [path, options] of cases) expectThrowCode(() => sqliteStore(bad(path), bad(options)), "INVALID_ARGUMENT");
  expect(readdirSync(dir)).toEqual([]);
});

it("postgresStore refuses bad targets and options with INVALID_ARGUMENT before connecting", () => {
  const url = "postgres://nobody@127.0.0.1:1/none";
  const cases: [unknown, unknown][] = [
    [5, undefined],
    [{}, undefined],
    ["", undefined],
    ["hello", undefined],
    [url, 5],
    [url, { foo: 1 }],
    [url, { durability: "x" }],
    [url, { tablePrefix: "x; drop table y" }],
    [url, { queryTimeoutMs: -1 }],
    [url, { max: 1.5 }],
  ];
  for (const [target, options] of cases)
    expectThrowCode(() => postgresStore(bad(target), bad(options)), "INVALID_ARGUMENT");
});

it("an import of text or bytes refuses a bad onProgress or totalBytes, as a stream import does", async () => {
  const { importConversations } = await import("../../src/index.js");
  const loom = await Loom.open();
  const text = JSON.stringify([{ messages: [{ role: "user", content: "hi" }] }]);
  for (const [named, options] of [
    ["onProgress", { onProgress: 5 }],
    ["totalBytes", { totalBytes: -1 }],
    ["totalBytes", { totalBytes: Number.NaN }],
  ] as const) {
    for (const data of [text, new TextEncoder().encode(text)]) {
      const e = await errorOf(() => importConversations(loom, "u", data, bad(options)));
      expect(e.code, JSON.stringify(options)).toBe("INVALID_ARGUMENT");
      expect(e.message).toContain(named);
    }
  }
  expect(await loom.user("u").list()).toEqual([]);
  await loom.close();
});

it("a restore's or an import's message never ends in two periods", async () => {
  const loom = await Loom.open();
  const chats = loom.user("u");
  const chat = await chats.create();
  await chat.append({ role: "user", content: "hi" });
  const exported = await chat.export();
  exported.messages[0]!.role = bad("robot");
  const e = await errorOf(() => chats.import(exported));
  expect(e.message).not.toMatch(/\.\./);
  await loom.close();
});

it("the AI SDK adapter refuses what is not a chat or a list of messages with INVALID_ARGUMENT", async () => {
  const { chatLoop, toModelMessages, toUIMessages } = await import("../../src/ai-sdk.js");
  for (const value of [null, undefined, 5, "chat", {}]) {
    expectThrowCode(() => toUIMessages(bad(value)), "INVALID_ARGUMENT");
    expectThrowCode(() => chatLoop(bad(value)), "INVALID_ARGUMENT");
    if (!Array.isArray(value)) expectThrowCode(() => toModelMessages(bad(value)), "INVALID_ARGUMENT");
  }
});
