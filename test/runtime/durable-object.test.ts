// ctxloom/cloudflare for real: the Durable Object store in workerd (through miniflare), with
// SQLite-backed objects, concurrent requests from many Worker invocations, and persistence
// across a restart of the runtime.
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { durableObjectStore } from "../../src/cloudflare.js";
import { expectedTexts } from "../store/texts-spec.js";
import { textsSpec, trickyText } from "../store/tricky-texts.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
let code: string;
const persist = mkdtempSync(join(tmpdir(), "ctxloom-do-"));

beforeAll(async () => {
  const out = await build({
    entryPoints: [join(root, "test/runtime/do-worker.ts")],
    bundle: true, format: "esm", platform: "browser", target: "es2022", write: false, logLevel: "silent",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:workers"],
    plugins: [{
      name: "core-module",
      setup(b) {
        // The workerd entry imports the core and the token counter as modules, as wrangler hands them over.
        b.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: `./${args.path.split("/").pop()}`, external: true }));
      },
    }],
  });
  code = out.outputFiles[0]!.text;
}, 120_000);

afterAll(() => rmSync(persist, { recursive: true, force: true }));

function runtime(): Miniflare {
  return new Miniflare({
    compatibilityDate: "2025-09-01",
    modulesRoot: root,
    modules: [
      { type: "ESModule", path: join(root, "worker.js"), contents: code },
      { type: "CompiledWasm", path: join(root, "ctxloom.wasm"), contents: readFileSync(join(root, "build/ctxloom.wasm")) },
      { type: "CompiledWasm", path: join(root, "ctxloom-bpe.wasm"), contents: readFileSync(join(root, "build/ctxloom-bpe.wasm")) },
    ],
    durableObjects: { CHATS: { className: "UserChatsObject", useSQLite: true } },
    durableObjectsPersist: persist,
  });
}

const call = async (mf: Miniflare, user: string, body: object) => {
  const r = await mf.dispatchFetch(`http://localhost/?user=${encodeURIComponent(user)}`, { method: "POST", body: JSON.stringify(body) });
  return (await r.json()) as Record<string, unknown>;
};

describe("durableObjectStore arguments", () => {
  it("refuses what is not a SQLite-backed object's storage, and unknown options", () => {
    const bad = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    bad(() => durableObjectStore({} as never));
    bad(() => durableObjectStore(null as never));
    const storage = { sql: { exec: () => ({ toArray: () => [], rowsWritten: 0 }) }, transactionSync: <T>(f: () => T) => f() };
    bad(() => durableObjectStore(storage, { tablePrefx: "x" } as never));
    expect(() => durableObjectStore(storage, { tablePrefx: "x" } as never)).toThrow(/did you mean "tablePrefix"/);
    bad(() => durableObjectStore(storage, { tablePrefix: "a-b" }));
  });
});

describe("Durable Object store (workerd via miniflare)", () => {
  it("concurrent requests from many invocations append to one chat without a lost or repeated message, and a restarted runtime has it all", async () => {
    let mf = runtime();
    const created = await call(mf, "alice", { op: "create" });
    expect(created.engine).toBe("wasm");
    const chat = created.id as string;
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(mf, "alice", { op: "append", chat, content: `message ${i}`, role: i % 2 ? "assistant" : "user" })),
    );
    expect(results.map((r) => r.id).sort((a, b) => (a as number) - (b as number))).toEqual(Array.from({ length: 40 }, (_, i) => i));
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
    const image = [{ type: "text", text: "What is this?" }, { type: "image", image: "https://example.com/a.png", width: 1000, height: 1000 }, { type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf" }];
    const thought = [{ type: "reasoning", text: "A cat, surely.", signature: "sig" }, { type: "text", text: "A cat." }];
    await call(mf, "carol", { op: "append", chat, content: image });
    await call(mf, "carol", { op: "append", chat, content: thought, role: "assistant" });
    const before = await call(mf, "carol", { op: "dump", chat });
    expect(before.parts).toMatchObject([{ id: 0, parts: image }, { id: 1, parts: thought }]);
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
      expect(imported.export, `seed ${seed}`).toEqual({ ...exported, chat: { ...exported.chat, id: copy, updatedAt: (imported.export as { chat: { updatedAt: number } }).chat.updatedAt } });
      expect((after.list as { id: string }[]).map((c) => c.id).sort(), `seed ${seed}`).toEqual([id, copy].sort());
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
    expect(await call(mf, "dave", { op: "append", chat, content: "other", key: "request-1" })).toEqual({ error: "INVALID_ARGUMENT" });
    expect((await call(mf, "dave", { op: "append", chat, content: "hi again", key: "request-2" })).count).toBe(2);
    // Schema version 1 (no keys): migrated when a store opens it; its message stays.
    expect(await call(mf, "erin", { op: "v1" })).toEqual({ ok: true });
    expect(await call(mf, "erin", { op: "v1-append", key: "k" })).toEqual({
      first: 1, retry: 1, path: ["hi", "hello"], version: 2, keys: [{ id: 0, key: null }, { id: 1, key: "k" }],
    });
    await mf.dispose();
  }, 120_000);
});
