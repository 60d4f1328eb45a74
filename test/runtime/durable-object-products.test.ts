// What a chat product needs of ctxloom/cloudflare, in workerd (through miniflare) with a SQLite
// object persisted to a folder: a chat under the client's id with metadata, a list paged by
// activity, and a redaction whose text is gone from what the object's tables hold and from its
// database file (workerd's log is workerd's: a Worker may not checkpoint or vacuum it).
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const persist = mkdtempSync(join(tmpdir(), "ctxloom-do-products-"));
let code: string;

beforeAll(async () => {
  const out = await build({
    entryPoints: [join(root, "test/runtime/do-products-worker.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    conditions: ["workerd", "worker", "browser"],
    external: ["cloudflare:workers"],
    // The workerd entry imports the core and the counter as modules, as wrangler hands them over.
    plugins: [
      {
        name: "wasm",
        setup: (b) =>
          void b.onResolve({ filter: /\.wasm$/ }, (a) => ({ path: `./${a.path.split("/").pop()}`, external: true })),
      },
    ],
  });
  code = out.outputFiles[0]!.text;
}, 120_000);

afterAll(() => rmSync(persist, { recursive: true, force: true }));

const runtime = () =>
  new Miniflare({
    compatibilityDate: "2025-09-01",
    modulesRoot: root,
    durableObjectsPersist: persist,
    durableObjects: { CHATS: { className: "ProductChats", useSQLite: true } },
    modules: [
      { type: "ESModule", path: join(root, "worker.js"), contents: code },
      ...["ctxloom.wasm", "ctxloom-bpe.wasm"].map((f) => ({
        type: "CompiledWasm" as const,
        path: join(root, f),
        contents: readFileSync(join(root, "build", f)),
      })),
    ],
  });

const call = async (mf: Miniflare, body: object) =>
  (await (
    await mf.dispatchFetch("http://localhost/?user=alice", { method: "POST", body: JSON.stringify(body) })
  ).json()) as Record<string, unknown>;

/** Every file under `dir`, with its bytes. */
const files = (dir: string): { path: string; bytes: Buffer }[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [{ path, bytes: readFileSync(path) }];
  });

describe("a chat product on Durable Objects (workerd via miniflare)", () => {
  it("the client's id and metadata kept, CHAT_EXISTS, a paged list, across a restart", async () => {
    let mf = runtime();
    expect(await call(mf, { op: "create", chat: "client-1", metadata: { folder: "work" } })).toEqual({
      id: "client-1",
      metadata: { folder: "work" },
    });
    for (const id of ["client-2", "client-3", "client-4"]) await call(mf, { op: "create", chat: id, metadata: {} });
    await call(mf, { op: "append", chat: "client-2", content: "latest activity" });
    expect((await call(mf, { op: "create", chat: "client-1", metadata: {} })).code).toBe("CHAT_EXISTS");
    await mf.dispose();
    mf = runtime();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await call(mf, { op: "list", limit: 3, ...(cursor ? { cursor } : {}) })) as {
        chats: { id: string; metadata?: unknown }[];
        cursor: string | null;
      };
      seen.push(...page.chats.map((c) => c.id));
      if (page.chats.some((c) => c.id === "client-1"))
        expect(page.chats.find((c) => c.id === "client-1")!.metadata).toEqual({ folder: "work" });
      cursor = page.cursor ?? undefined;
    } while (cursor);
    expect(seen[0]).toBe("client-2");
    expect(seen.slice().sort()).toEqual(["client-1", "client-2", "client-3", "client-4"]);
    await mf.dispose();
  });

  it("redact: the text is gone from the object's tables and its database file; workerd keeps the erasing tools from Workers", async () => {
    const secret = "SECRET-PASSPORT-X93K2-" + "q".repeat(5000); // a long text: on SQLite's overflow pages
    let mf = runtime();
    await call(mf, { op: "create", chat: "private", metadata: {} });
    for (let i = 0; i < 60; i++)
      await call(mf, {
        op: "append",
        chat: "private",
        content: i === 20 ? secret : `filler ${i} ${"y".repeat(i * 7)}`,
        role: i % 2 ? "assistant" : "user",
      });
    await mf.dispose();
    expect(files(persist).some((f) => f.bytes.includes("SECRET-PASSPORT"))).toBe(true); // on disk before
    mf = runtime();
    const redacted = await call(mf, { op: "redact", chat: "private", id: 20 });
    expect(redacted.content).toBe("[redacted]");
    expect((redacted.path as string[]).length).toBe(60);
    const tables = (await call(mf, { op: "tables" })) as { messages: Record<string, unknown>[] };
    expect(JSON.stringify(tables.messages)).not.toContain("SECRET-PASSPORT");
    await mf.dispose();
    // The database file holds it nowhere; workerd's log (-wal) may still hold the pages as they
    // were until workerd checkpoints it: a Worker may not run VACUUM, secure_delete or a
    // checkpoint (refused below), so the store can rewrite the row and no more (docs/chats.md, Chats in a product).
    const holding = files(persist)
      .filter((f) => f.bytes.includes("SECRET-PASSPORT"))
      .map((f) => f.path);
    expect(holding.filter((path) => !path.endsWith(".sqlite-wal"))).toEqual([]);
    mf = runtime();
    const erasers = await call(mf, { op: "erasers" });
    for (const answer of Object.values(erasers)) expect(answer).toMatch(/^refused: /);
    await mf.dispose();
  });

  // Issue 30, item 6: what a delete leaves, measured (docs/chats.md, Chats in a product).
  it("delete: the chat's texts are gone from every row the object reads; their bytes are left to workerd (its log here)", async () => {
    const secret = "SECRET-VISA-Q81Z-" + "w".repeat(5000); // on overflow pages
    let mf = runtime();
    await call(mf, { op: "create", chat: "to-delete", metadata: { note: "TITLE-NOTE-5531" } });
    for (let i = 0; i < 60; i++)
      await call(mf, {
        op: "append",
        chat: "to-delete",
        content: i === 20 ? secret : `filler ${i} ${"z".repeat(i * 7)}`,
        role: i % 2 ? "assistant" : "user",
      });
    await mf.dispose();
    expect(files(persist).some((f) => f.bytes.includes("SECRET-VISA"))).toBe(true); // on disk before
    mf = runtime();
    expect(((await call(mf, { op: "delete", chat: "to-delete" })).list as string[]).includes("to-delete")).toBe(false);
    const tables = (await call(mf, { op: "tables" })) as { messages: Record<string, unknown>[] };
    expect(JSON.stringify(tables.messages)).not.toContain("SECRET-VISA");
    await mf.dispose();
    // As after a redaction: a Worker cannot erase the bytes (VACUUM, secure_delete and checkpoints are
    // refused, see "redact"); here they are in workerd's log (-wal), which workerd checkpoints when it will.
    const holding = files(persist)
      .filter((f) => f.bytes.includes("SECRET-VISA") || f.bytes.includes("TITLE-NOTE-5531"))
      .map((f) => f.path);
    expect(holding.filter((path) => !path.endsWith(".sqlite-wal"))).toEqual([]);
  });
});
