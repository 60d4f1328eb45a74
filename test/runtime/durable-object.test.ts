// ctxloom/cloudflare for real: the Durable Object store in workerd (through miniflare), with
// SQLite-backed objects, concurrent requests from many Worker invocations, and persistence
// across a restart of the runtime.
import type { Miniflare } from "miniflare";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { durableObjectStore } from "../../src/cloudflare.js";
import { contractPassed } from "../store/contract-run.js";
import { expectedMemoryApi, expectedMemoryBad } from "../memory/memory-cases.js";
import { expectedMemoryContext } from "../memory/context-cases.js";
import { expectedAttacks } from "../adapters/memory-attack-cases.js";
import { expectedThroughLooms } from "../store/exists-cases.js";
import { expectedErasure, expectedMemoryErasure, expectedPrune } from "../store/retention-cases.js";
import { expectedTexts } from "../store/texts-spec.js";
import { textsSpec, trickyText } from "../store/tricky-texts.js";
import { bundleWorker, workerdRuntime } from "./do-runtime.js";

let code: string;
const persist = mkdtempSync(join(tmpdir(), "ctxloom-do-"));

beforeAll(async () => {
  code = await bundleWorker("test/runtime/do-worker.ts");
}, 120_000);

afterAll(() => rmSync(persist, { recursive: true, force: true }));

function runtime(): Miniflare {
  return workerdRuntime(code, persist, {
    CHATS: { className: "UserChatsObject", useSQLite: true },
    KV_CHATS: { className: "KeyValueObject", useSQLite: false },
  });
}

const call = async (mf: Miniflare, user: string, body: object, query = "") => {
  const r = await mf.dispatchFetch(`http://localhost/?user=${encodeURIComponent(user)}${query}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return (await r.json()) as Record<string, unknown>;
};

describe("durableObjectStore arguments", () => {
  it("refuses what is not a SQLite-backed object's storage, and unknown options", () => {
    const bad = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    bad(() => durableObjectStore({} as never));
    bad(() => durableObjectStore(null as never));
    const storage = {
      sql: { exec: () => ({ toArray: () => [], raw: () => [], rowsWritten: 0 }) },
      transactionSync: <T>(f: () => T) => f(),
    };
    bad(() => durableObjectStore(storage, { tablePrefx: "x" } as never));
    expect(() => durableObjectStore(storage, { tablePrefx: "x" } as never)).toThrow(/did you mean "tablePrefix"/);
    bad(() => durableObjectStore(storage, { tablePrefix: "a-b" }));
    bad(() => durableObjectStore(storage, { pagedFrom: 0 }));
    bad(() => durableObjectStore(storage, { pagedFrom: "many" as never }));
  });
});

describe("Durable Object store (workerd via miniflare)", () => {
  it("concurrent requests from many invocations append to one chat without a lost or repeated message, and a restarted runtime has it all", async () => {
    let mf = runtime();
    const created = await call(mf, "alice", { op: "create" });
    expect(created.engine).toBe("wasm");
    const chat = created.id as string;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(mf, "alice", { op: "append", chat, content: `message ${i}`, role: i % 2 ? "assistant" : "user" }),
      ),
    );
    expect(results.map((r) => r.id).sort((a, b) => (a as number) - (b as number))).toEqual(
      Array.from({ length: 40 }, (_, i) => i),
    );
    // Another user's object is another database.
    const bob = await call(mf, "bob", { op: "create" });
    expect(await call(mf, "bob", { op: "dump", chat })).toEqual({ error: "UNKNOWN_CHAT" });
    const before = await call(mf, "alice", { op: "dump", chat });
    expect(before.count).toBe(40);
    expect((before.path as string[]).length).toBe(40);
    await mf.dispose();

    mf = runtime();
    const after = await call(mf, "alice", { op: "dump", chat });
    expect(after).toEqual(before);
    expect((await call(mf, "bob", { op: "dump", chat: bob.id })).count).toBe(0);
    await mf.dispose();
  }, 120_000);

  it("keeps content parts (an image, a PDF, reasoning) across a restart", async () => {
    let mf = runtime();
    const chat = (await call(mf, "carol", { op: "create", model: "claude-sonnet-4-5" })).id as string;
    const image = [
      { type: "text", text: "What is this?" },
      { type: "image", image: "https://example.com/a.png", width: 1000, height: 1000 },
      { type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf" },
    ];
    const thought = [
      { type: "reasoning", text: "A cat, surely.", signature: "sig" },
      { type: "text", text: "A cat." },
    ];
    await call(mf, "carol", { op: "append", chat, content: image });
    await call(mf, "carol", { op: "append", chat, content: thought, role: "assistant" });
    const before = await call(mf, "carol", { op: "dump", chat });
    expect(before.parts).toMatchObject([
      { id: 0, parts: image },
      { id: 1, parts: thought },
    ]);
    await mf.dispose();
    mf = runtime();
    expect(await call(mf, "carol", { op: "dump", chat })).toEqual(before);
    await mf.dispose();
  }, 120_000);

  // Issue 21, item 6: the texts of test/store/texts-roundtrip.test.ts, in workerd's SQLite.
  it("every text of a chat comes back exactly after a restart, and through an export imported and reopened", async () => {
    const seed = Number(process.env.TEXTS_SEED ?? Date.now() % 2 ** 31);
    const cases = fc.sample(fc.tuple(textsSpec, trickyText), { numRuns: 8, seed });
    let mf = runtime();
    const made: { user: string; id: string; copy: string; before: Record<string, unknown> }[] = [];
    for (const [spec, user] of cases) {
      const built = await call(mf, user, { op: "texts-build", spec });
      expect(built.texts, `seed ${seed}: ${JSON.stringify(built.error)}`).toEqual(expectedTexts(spec));
      const copy = await call(mf, user, { op: "texts-import", export: built.export });
      made.push({ user, id: built.id as string, copy: copy.id as string, before: built });
    }
    await mf.dispose();
    mf = runtime();
    for (const { user, id, copy, before } of made) {
      const after = await call(mf, user, { op: "texts-read", chat: id });
      expect({ ...after, list: undefined }, `seed ${seed}`).toEqual({ ...before, list: undefined });
      const imported = await call(mf, user, { op: "texts-read", chat: copy });
      const exported = before.export as { chat: object };
      expect(imported.export, `seed ${seed}`).toEqual({
        ...exported,
        chat: {
          ...exported.chat,
          id: copy,
          updatedAt: (imported.export as { chat: { updatedAt: number } }).chat.updatedAt,
        },
      });
      // (Two cases may draw the same user: the list holds every chat made for that user.)
      const mine = made.filter((m) => m.user === user).flatMap((m) => [m.id, m.copy]);
      expect((after.list as { id: string }[]).map((c) => c.id).sort(), `seed ${seed}`).toEqual(mine.sort());
    }
    await mf.dispose();
  }, 180_000);

  // Issue 21, item 5: an append's key, the same contract as every store's.
  it("an append retried under its key returns the stored message, and a version-1 database is migrated to keys", async () => {
    const mf = runtime();
    const chat = (await call(mf, "dave", { op: "create" })).id as string;
    const first = await call(mf, "dave", { op: "append", chat, content: "hi", key: "request-1" });
    expect(await call(mf, "dave", { op: "append", chat, content: "hi", key: "request-1" })).toEqual(first);
    expect(first).toEqual({ id: 0, parentId: null, count: 1 });
    expect(await call(mf, "dave", { op: "append", chat, content: "other", key: "request-1" })).toEqual({
      error: "INVALID_ARGUMENT",
    });
    expect((await call(mf, "dave", { op: "append", chat, content: "hi again", key: "request-2" })).count).toBe(2);
    // Schema version 1 (no keys): migrated when a store opens it; its message stays.
    expect(await call(mf, "erin", { op: "v1" })).toEqual({ ok: true });
    expect(await call(mf, "erin", { op: "v1-append", key: "k" })).toEqual({
      first: 1,
      retry: 1,
      path: ["hi", "hello"],
      version: 3,
      keys: [
        { id: 0, key: null },
        { id: 1, key: "k" },
      ],
    });
    await mf.dispose();
  }, 120_000);
});

// Issue 22, item 5: one schema, one row codec, one validation policy for the SQL stores.
describe("the store kit in a Durable Object (workerd via miniflare)", () => {
  it("migrates a version-2 database (as released) into the SQLite file's schema: every field, key and vector of each user's chat reads back", async () => {
    const mf = runtime();
    const out = await call(mf, "erin", { op: "v2-migrate" });
    await mf.dispose();
    const call1 = { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Porto"}' } };
    const m = (
      id: number,
      parentId: number | null,
      role: string,
      content: string,
      priority: string,
      tokens: number,
      createdAt: number,
      extra = {},
    ) => ({ id, parentId, role, content, priority, tokens, createdAt, kind: "message", ...extra });
    const erin = [
      m(0, null, "user", "look", "high", 9, 10, {
        name: "ann",
        parts: [
          { type: "text", text: "look" },
          { type: "image", image: "https://example.com/a.png" },
        ],
      }),
      m(1, 0, "assistant", "", "normal", 7, 11, { toolCalls: [call1] }),
      m(2, 1, "tool", "sunny", "normal", 4, 12.25, { toolCallId: "call_1" }),
      m(3, 2, "assistant", "It is sunny.", "low", 5, 13),
      {
        ...m(4, null, "system", "Asked the weather.", "critical", 6, 14),
        kind: "summary",
        covers: { first: 0, last: 3 },
      },
    ];
    expect(out.erin).toEqual({
      chat: {
        id: "c1",
        userId: "erin",
        title: "old",
        model: "gpt-4o",
        system: "be brief",
        createdAt: 1.5,
        updatedAt: 20,
        messageCount: 5,
        head: 3,
        options: { historyLimits: true },
      },
      messages: erin,
    });
    expect(out.zoe).toEqual({
      chat: {
        id: "c1",
        userId: "zoe",
        title: "hers",
        model: "gpt-4o",
        system: null,
        createdAt: 3,
        updatedAt: 4,
        messageCount: 1,
        head: 0,
        options: {},
      },
      messages: [m(0, null, "user", "hers", "normal", 3, 5)],
    });
    expect(out.embeddings).toEqual({
      erin: [
        [0, [1, -2]],
        [3, [0.5, 3]],
      ],
      zoe: [[0, [7, 8]]],
    });
    expect(out.retry).toEqual({ ok: false, existing: erin[3] }); // the key of a migrated message
    expect([out.added, out.again, out.path]).toEqual([5, 5, [0, 1, 2, 3, 5]]);
    // The kit's version table (a row per version: an older release reads 3 and refuses), no table of version 2 left, the layout of a new database.
    expect(out.versions).toEqual([[3], [4], [5]]);
    expect(out.names).toEqual([
      "v2_chats",
      "v2_chats_by_update",
      "v2_embeddings",
      "v2_memory",
      "v2_memory_by_path",
      "v2_message_numbers",
      "v2_messages",
      "v2_messages_by_key",
      "v2_schema",
      "v2_users",
    ]);
    expect(out.sameLayout).toBe(true);
  }, 120_000);

  // Issue 30, item 2: the existence check, and CHAT_EXISTS from the store itself (through Looms: a new id for an import).
  it("passes every case of the store contract (ctxloom/store/contract); answers whether a chat exists to Looms sharing it", async () => {
    const mf = runtime();
    const out = await call(mf, "frank", { op: "contract" });
    await mf.dispose();
    expect(out).toEqual({ cases: contractPassed(), looms: expectedThroughLooms() });
  }, 120_000);
});

// Issue 34, items 1, 2 and 4: a user's working memory through the API, as on every store.
describe("a user's working memory in a Durable Object (workerd via miniflare)", () => {
  it("revisions, merges and conflicts, a chat's own memory, exports; bad calls refused, nothing changed; every context carries it; the memory tool's 68 attacks refused", async () => {
    const mf = runtime();
    const out = await call(mf, "mona", { op: "memory-api" });
    await mf.dispose();
    expect(out).toEqual({
      api: expectedMemoryApi("mona"),
      bad: expectedMemoryBad(),
      context: expectedMemoryContext(),
      attacks: expectedAttacks(),
    });
  }, 180_000);
});

// Issue 35, items 4 and 5: a user's erasure and a prune in a Durable Object, the rows gone.
describe("Durable Object: a user's erasure and a prune (workerd via miniflare)", () => {
  it("user(id).erase() leaves no row of the user (chats, users, texts, vectors, memories); loom.prune() removes idle chats and those past a count, and their memories", async () => {
    const mf = runtime();
    const out = (await call(mf, "lena", { op: "retention" })) as {
      erase: unknown;
      rows: unknown;
      prune: unknown;
      memory: unknown;
      memoryLeft: unknown;
    };
    await mf.dispose();
    expect(out.erase).toEqual(expectedErasure());
    expect(out.rows).toEqual({ chats: 1, users: 1, texts: 0, orphanVectors: 0 }); // (alice's new chat, made after the erasure)
    expect(out.prune).toEqual(expectedPrune());
    expect(out.memory).toEqual(expectedMemoryErasure());
    expect(out.memoryLeft).toEqual([["bob", "", 1, "prefs.md"]]);
  }, 120_000);
});

// Issue 35, item 3: a long chat opens paged (its texts left in storage), and reads as a whole one does.
describe("Durable Object: a chat opened paged (workerd via miniflare)", () => {
  it("the same path, context, export and branches as the chat opened with its texts, holding none of them; appends, redactions, a delete elsewhere", async () => {
    const mf = runtime();
    const out = (await call(mf, "max", { op: "paged" })) as Record<string, unknown>;
    await mf.dispose();
    expect(out.same).toBe(true);
    expect(out.count).toBeGreaterThan(50);
    const held = out.held as { paged: number; texts: number };
    expect(held.paged).toBeLessThan(held.texts / 4); // numbers only: about 13 bytes a message and a bit, against its texts
    expect(out.after).toEqual({ last: "appended paged", redacted: "[redacted]" });
    expect(out.back).toEqual({ last: "appended paged", redacted: "[redacted]", count: 68 });
    expect(out.gone).toBe("UNKNOWN_CHAT");
  }, 120_000);
});

// Issue 35, item 3: a long chat's numbers apart from its texts (schema version 5), read by a paged open.
describe("Durable Object: a long chat's chunks of numbers (workerd via miniflare)", () => {
  it("written as the chat fills and read by a paged open (the same chat as opened whole), written again by a redaction, gone with the chat; an object of version 4 migrates and its first paged open writes them", async () => {
    const mf = runtime();
    const out = (await call(mf, "nora", { op: "chunks" })) as Record<string, unknown>;
    await mf.dispose();
    const chunk = 1024 * 17;
    expect(out.written).toEqual([
      [1, 0, chunk],
      [1, 1, chunk],
    ]);
    expect(out.sameAppended).toBe(true);
    expect(out.fromChunk).toEqual([3 + 5, 3 + 5 + 1000]); // message 5's tokens: the chunk's, and the row changed behind the store
    expect(out.sameRedacted).toBe(true);
    const [paged, whole] = out.redacted as number[];
    expect(paged).toBe(whole);
    expect(paged).not.toBe(3 + 13);
    expect(out.deleted).toEqual([]);
    expect(out.migrated).toEqual({
      versions: [4, 5],
      chunks: [
        [1, 0, chunk],
        [1, 1, chunk],
      ],
      same: true,
      again: true,
    });
  }, 180_000);
});

// Issue 25, items 3 and 4: within Cloudflare's limits, and what cannot run here says so.
describe("Durable Object limits (workerd via miniflare)", () => {
  it("a message too large for a row is refused before the write with MESSAGE_TOO_LARGE naming the limit; the chat is as it was", async () => {
    const mf = runtime();
    const out = await call(mf, "gina", { op: "row-limits" });
    await mf.dispose();
    expect(out.fits).toBe("ok");
    for (const refused of [out.over, out.farOver, out.imported] as { code: string; message: string }[]) {
      expect(refused.code).toBe("MESSAGE_TOO_LARGE");
      expect(refused.message).toMatch(/holds at most 2000000.*retry cannot succeed/);
    }
    expect([out.count, out.reloaded]).toEqual([1, 1]);
    expect(out.afterImport).toBeNull(); // nothing of the chat was stored
    expect(out.system).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringMatching(/holds at most 2000000/),
    });
  }, 120_000);

  it("a Durable Object without SQLite storage is refused at creation with INVALID_ARGUMENT saying how to declare it", async () => {
    const mf = runtime();
    const out = (await call(mf, "hal", {}, "&kv")) as { code: string; message: string };
    await mf.dispose();
    expect(out.code).toBe("INVALID_ARGUMENT");
    expect(out.message).toMatch(/new_sqlite_classes/);
  }, 120_000);

  it("ctxloom/sqlite on Workers throws UNSUPPORTED_RUNTIME naming the runtime and the stores that run there", async () => {
    const mf = runtime();
    const out = (await call(mf, "ivy", { op: "sqlite-here" })) as { code: string; message: string };
    await mf.dispose();
    expect(out.code).toBe("UNSUPPORTED_RUNTIME");
    expect(out.message).toMatch(/does not run on Cloudflare Workers.*ctxloom\/cloudflare/);
  }, 120_000);
});
