// Issue 35, item 1: ctxloom/cloudflare's d1Store for real, in workerd's D1 (through miniflare):
// the full store contract run inside the Worker, writers as independent as two servers appending
// to one chat at once (sibling branches, never a lost or repeated message), the SQLite file's
// schema, every text across a restart, a user's erasure and a prune (rows gone).
import Database from "better-sqlite3";
import type { Miniflare } from "miniflare";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { d1Store } from "../../src/cloudflare.js";
import { sqliteStore } from "../../src/sqlite.js";
import { contractPassed } from "../store/contract-run.js";
import { expectedThroughLooms } from "../store/exists-cases.js";
import { expectedErasure, expectedMemoryErasure, expectedPrune } from "../store/retention-cases.js";
import { expectedMemoryApi, expectedMemoryBad } from "../memory/memory-cases.js";
import { expectedMemoryContext } from "../memory/context-cases.js";
import { expectedAttacks } from "../adapters/memory-attack-cases.js";
import { expectedMemoryRaces } from "./d1-memory-ops.js";
import { expectedTexts } from "../store/texts-spec.js";
import { textsSpec, trickyText } from "../store/tricky-texts.js";
import { bundleWorker, workerdRuntime } from "./do-runtime.js";

let code: string;
const persist = mkdtempSync(join(tmpdir(), "ctxloom-d1-"));

beforeAll(async () => {
  code = await bundleWorker("test/runtime/d1-worker.ts");
}, 120_000);
afterAll(() => rmSync(persist, { recursive: true, force: true }));

const runtime = (): Miniflare => workerdRuntime(code, persist, {}, { d1Databases: { DB: "ctxloom-test" } });
const call = async (mf: Miniflare, body: object) => {
  const r = await mf.dispatchFetch("http://localhost/", { method: "POST", body: JSON.stringify(body) });
  return (await r.json()) as Record<string, unknown>;
};

describe("d1Store arguments", () => {
  it("refuses what is not a D1 binding, and unknown options", () => {
    const bad = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    bad(() => d1Store({} as never));
    bad(() => d1Store(null as never));
    const db = { prepare: () => ({}) as never, batch: async () => [] };
    bad(() => d1Store(db, { tablePrefx: "x" } as never));
    bad(() => d1Store(db, { tablePrefix: "a-b" }));
  });
});

describe("D1 store (workerd via miniflare)", () => {
  it("passes every case of the store contract (ctxloom/store/contract); answers whether a chat exists to Looms sharing it", async () => {
    const mf = runtime();
    const out = await call(mf, { op: "contract" });
    await mf.dispose();
    expect(out).toEqual({ cases: contractPassed(), looms: expectedThroughLooms() });
  }, 120_000);

  it("40 writers, each its own Loom, append to one chat at once: every message once, ids dense, branches where they raced", async () => {
    const mf = runtime();
    await call(mf, { op: "create", chat: "busy" });
    const sent = Array.from({ length: 40 }, (_, i) => `message ${i}`);
    const answers = await Promise.all(sent.map((content) => call(mf, { op: "append", chat: "busy", content })));
    expect(answers.map((a) => a.id).sort((a, b) => (a as number) - (b as number))).toEqual(sent.map((_, i) => i));
    const dump = (await call(mf, { op: "dump", chat: "busy" })) as {
      messages: [number, number | null, string][];
      leaves: number;
    };
    expect(dump.messages.map((m) => m[0])).toEqual(sent.map((_, i) => i));
    expect(dump.messages.map((m) => m[2]).sort()).toEqual([...sent].sort());
    for (const [id, parent] of dump.messages) expect(parent === null || parent < id).toBe(true);
    await mf.dispose();
  }, 120_000);

  it("20 appends of one id through the store at once: one lands, the others learn the size; the winner's retry finds its message", async () => {
    const mf = runtime();
    const out = (await call(mf, { op: "race" })) as {
      answers: string[];
      retry: { ok: boolean; existing?: { content: string } };
      count: number;
    };
    await mf.dispose();
    expect(out.answers).toEqual(["ok", ...Array.from({ length: 19 }, () => "size 1")]);
    expect(out.retry.ok).toBe(false);
    expect(out.retry.existing?.content).toMatch(/^w\d+$/);
    expect(out.count).toBe(1);
  }, 120_000);

  it("an append whose answer is lost is STORE_OUTCOME_UNKNOWN, and the Loom's retry under its key stores it once", async () => {
    const mf = runtime();
    const out = await call(mf, { op: "lost-answer" });
    await mf.dispose();
    expect(out).toEqual({ id: 0, stored: ["once"], direct: "ok", lost: "STORE_OUTCOME_UNKNOWN" });
  }, 120_000);

  it("its tables are the SQLite file's, column for column and index for index, at the kit's schema version", async () => {
    const mf = runtime();
    const out = (await call(mf, { op: "layout" })) as { layout: Record<string, unknown>; versions: unknown[] };
    await mf.dispose();
    const dir = mkdtempSync(join(tmpdir(), "ctxloom-d1-layout-"));
    try {
      const path = join(dir, "x.db");
      await sqliteStore(path)
        .listChats("anyone")
        .then(() => undefined);
      const db = new Database(path, { readonly: true });
      const file: Record<string, unknown> = {};
      for (const t of ["users", "chats", "messages", "embeddings", "memory", "message_numbers", "schema"]) {
        const table = t === "schema" ? "ctxloom_schema" : t;
        file[t] = db.prepare(`PRAGMA table_info(${table})`).raw().all();
        file[`${t} indexes`] = db
          .prepare(`PRAGMA index_list(${table})`)
          .raw()
          .all()
          .map((r) => [String((r as unknown[])[1]).replace("ctxloom_", ""), ...(r as unknown[]).slice(2)]);
      }
      const versions = db.prepare("SELECT version FROM ctxloom_schema").raw().all();
      db.close();
      expect(out.layout).toEqual(file);
      expect(out.versions).toEqual(versions);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("every text of a chat comes back exactly after a restart, and through an export imported", async () => {
    const seed = Number(process.env.TEXTS_SEED ?? Date.now() % 2 ** 31);
    const cases = fc.sample(fc.tuple(textsSpec, trickyText), { numRuns: 6, seed });
    let mf = runtime();
    const made: { user: string; id: string; built: Record<string, unknown> }[] = [];
    for (const [spec, user] of cases) {
      const built = await call(mf, { op: "texts-build", spec, user });
      expect(built.texts, `seed ${seed}: ${JSON.stringify(built.error)}`).toEqual(expectedTexts(spec));
      made.push({ user, id: built.id as string, built });
    }
    await mf.dispose();
    mf = runtime();
    for (const { user, id, built } of made) {
      const read = (await call(mf, { op: "texts-read", user, chat: id, export: built.export })) as {
        texts: unknown;
        export: unknown;
        copy: { texts: unknown };
      };
      expect(read.texts, `seed ${seed}`).toEqual(built.texts);
      expect(read.export, `seed ${seed}`).toEqual(built.export);
      expect(read.copy.texts, `seed ${seed}`).toEqual(built.texts);
    }
    await mf.dispose();
  }, 180_000);

  it("a message too large for a row is refused with MESSAGE_TOO_LARGE before the write", async () => {
    const mf = runtime();
    const out = (await call(mf, { op: "row-limits" })) as {
      fits: string;
      over: { code: string; message: string };
      count: number;
    };
    await mf.dispose();
    expect(out.fits).toBe("ok");
    expect(out.over.code).toBe("MESSAGE_TOO_LARGE");
    expect(out.over.message).toMatch(/holds at most 2000000/);
    expect(out.count).toBe(1);
  }, 120_000);
});

describe("D1: a user's erasure and a prune (workerd via miniflare)", () => {
  it("user(id).erase(): every chat, message, vector and key of the user gone, no row of theirs left, another user's whole", async () => {
    const mf = runtime();
    const out = (await call(mf, { op: "erase" })) as { out: unknown; rows: unknown };
    await mf.dispose();
    expect(out.out).toEqual(expectedErasure());
    // (erasureCases made alice a new chat after the erasure.)
    expect(out.rows).toEqual({ chats: 1, users: 1, texts: 0, orphanVectors: 0 });
  }, 120_000);

  it("a user's working memories go with the erasure (their own and each chat's), a pruned chat's with the prune: no row left", async () => {
    const mf = runtime();
    const out = (await call(mf, { op: "memory-erase" })) as { out: unknown; left: unknown };
    await mf.dispose();
    expect(out.out).toEqual(expectedMemoryErasure());
    expect(out.left).toEqual([["bob", "", 1, "prefs.md"]]);
  }, 120_000);

  it("loom.prune(): idle chats and those past a count per user, in batches across users", async () => {
    const mf = runtime();
    const out = await call(mf, { op: "prune" });
    await mf.dispose();
    expect(out).toEqual(expectedPrune());
  }, 120_000);

  // Issue 35, item 3: D1 writes no chunk of numbers (schema version 5), and keeps those it holds exact.
  it("a chat's chunks of numbers go with a redaction of one of their messages, a delete, an erasure, a prune", async () => {
    const mf = runtime();
    const out = await call(mf, { op: "numbers" });
    await mf.dispose();
    expect(out).toEqual({
      before: ["a:0", "a:1", "b:0", "b:1", "c:0", "c:1", "d:0", "d:1"],
      redacted: ["a:1", "b:0", "b:1", "c:0", "c:1", "d:0", "d:1"],
      after: ["a:1"],
      orphans: 0,
    });
  }, 120_000);
});

// Issue 34 on D1: a user's working memory, its compare-and-set said in SQL (no interactive transaction).
describe("D1: a user's working memory (workerd via miniflare)", () => {
  it("revisions, merges and conflicts, a chat's own memory, exports; bad calls refused, nothing changed; every context carries it; the memory tool's attacks refused", async () => {
    const mf = runtime();
    const out = await call(mf, { op: "memory-api", user: "mona" });
    await mf.dispose();
    expect(out).toEqual({
      api: expectedMemoryApi("mona"),
      bad: expectedMemoryBad(),
      context: expectedMemoryContext(),
      attacks: expectedAttacks(),
    });
  }, 180_000);

  it("writes larger than a statement go in whole or not at all; five at once on one revision: one lands; a chat deleted meanwhile leaves no memory row", async () => {
    const mf = runtime();
    const out = await call(mf, { op: "memory-races" });
    await mf.dispose();
    const { timing, ...rest } = out as { timing?: { writes: number; ms: number } } & Record<string, unknown>;
    expect(rest).toEqual(expectedMemoryRaces());
    console.log(`D1 (miniflare): ${timing!.writes} memory writes one after the other in ${timing!.ms} ms`);
  }, 180_000);
});
