// SQLite on the origin private file system against IndexedDB, in headless Chromium: the browser
// store's choice (docs/runtimes.md, "Chats that survive a reload"). n appends, each its own
// transaction, of the OASST texts: the kit's schema and statements on @sqlite.org/sqlite-wasm's
// OPFS storage (in a worker, the page cross-origin isolated, as it requires), and indexedDBStore.
// Their time per append and bytes per message. sqlite-wasm is no dependency of this project:
//   npm install --prefix /tmp/opfs @sqlite.org/sqlite-wasm
//   SQLITE_WASM_DIR=/tmp/opfs/node_modules/@sqlite.org/sqlite-wasm node --import ./bench/ts-loader.mjs bench/opfs-probe.ts 5000
import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { findChromium } from "../test/runtime/chromium-find.js";
import { schemaSql } from "../src/store/sql-schema.js";
import { sqlStatements } from "../src/store/sql-statements.js";
import { corpus } from "./corpus.js";
import { ROOT } from "./report.js";

const N = Number(process.argv[2] ?? 5000);
const st = sqlStatements("");
const schema = schemaSql({ prefix: "", versions: "ctxloom_schema" });
const texts = corpus();
const worker = `
import sqlite3InitModule from "/jswasm/sqlite3.mjs";
onmessage = async ({ data: { schema, st, texts, n } }) => {
  try {
    const sqlite3 = await sqlite3InitModule();
    const db = new sqlite3.oo1.OpfsDb("/growth.db", "c");
    db.exec(schema);
    db.exec({ sql: st.addUser, bind: ["u", 1] });
    db.exec({ sql: st.addChat, bind: ["u", "c", "", "gpt-4o", null, "{}", null, 1, 1, 0] });
    const add = db.prepare(st.addMessage);
    const save = db.prepare(st.saveChatState);
    const t0 = performance.now();
    for (let id = 0; id < n; id++) {
      db.exec("BEGIN IMMEDIATE");
      add.bind([1, id, id === 0 ? null : id - 1, id % 2 ? 2 : 1, texts[id % texts.length], 1, 50, null, null, null, 0, null, null, 1700000000000 + id, null, "k" + id]).stepReset();
      save.bind([id + 1, id, 1700000000000 + id, 1]).stepReset();
      db.exec("COMMIT");
    }
    const ms = performance.now() - t0;
    const [pages] = db.selectValues("PRAGMA page_count");
    const [size] = db.selectValues("PRAGMA page_size");
    postMessage({ perAppendUs: ms * 1000 / n, bytes: pages * size, perMessage: pages * size / n });
  } catch (e) { postMessage({ error: String(e && e.stack || e) }); }
};`;
const idbPage = (
  await build({
    stdin: {
      contents: `
import { indexedDBStore } from "./src/browser.ts";
globalThis.idb = async (texts, n) => {
  const store = indexedDBStore({ name: "probe" });
  await store.createChat({ id: "c", userId: "u", title: "", model: "gpt-4o", system: null, createdAt: 1, updatedAt: 1, messageCount: 0, head: null, options: {} });
  const t0 = performance.now();
  for (let id = 0; id < n; id++) await store.appendMessage("u", "c", { id, parentId: id === 0 ? null : id - 1, role: id % 2 ? "assistant" : "user", content: texts[id % texts.length], priority: "normal", tokens: 50, createdAt: 1700000000000 + id, kind: "message" }, id, 1700000000000 + id, "k" + id);
  const ms = performance.now() - t0;
  const usage = (await navigator.storage.estimate()).usageDetails?.indexedDB ?? 0;
  return { perAppendUs: ms * 1000 / n, bytes: usage, perMessage: usage / n };
};`,
      resolveDir: ROOT,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    conditions: ["browser"],
  })
).outputFiles[0]!.text;
const dir = process.env.SQLITE_WASM_DIR;
if (!dir)
  throw new Error(
    "set SQLITE_WASM_DIR to an installed @sqlite.org/sqlite-wasm (its folder holding sqlite-wasm/jswasm)",
  );
const root = join(dir, "sqlite-wasm");
const headers = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };
const server = createServer((req, res) => {
  const url = req.url!;
  if (url === "/")
    return res
      .writeHead(200, { ...headers, "content-type": "text/html" })
      .end(`<!doctype html><script type="module" src="/idb.js"></script>`);
  if (url === "/idb.js") return res.writeHead(200, { ...headers, "content-type": "text/javascript" }).end(idbPage);
  if (url === "/worker.mjs") return res.writeHead(200, { ...headers, "content-type": "text/javascript" }).end(worker);
  if (url.startsWith("/jswasm/")) {
    const file = root + url;
    return res
      .writeHead(200, { ...headers, "content-type": url.endsWith(".wasm") ? "application/wasm" : "text/javascript" })
      .end(readFileSync(file));
  }
  res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const f = (await findChromium()) as { executablePath: string; args: string[] };
const profile = mkdtempSync(join(tmpdir(), "ctxloom-opfs-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: f.executablePath,
  args: f.args,
  headless: true,
});
const page = await context.newPage();
page.on("console", (m) => console.log("page:", m.text()));
await page.goto(origin + "/");
const opfs = await page.evaluate(
  ([schema, st, texts, n]) =>
    new Promise((resolve) => {
      const w = new Worker("/worker.mjs", { type: "module" });
      w.onmessage = (e) => resolve(e.data);
      w.onerror = (e) => resolve({ error: String(e.message) });
      w.postMessage({ schema, st, texts, n });
    }),
  [schema, st, texts, N] as const,
);
console.log("sqlite-wasm OPFS", JSON.stringify(opfs));
await page.waitForFunction(() => "idb" in globalThis);
console.log(
  "IndexedDB",
  JSON.stringify(
    await page.evaluate(([t, n]) => (globalThis as unknown as { idb(...a: unknown[]): Promise<unknown> }).idb(t, n), [
      texts,
      N,
    ] as const),
  ),
);
await context.close();
server.close();
rmSync(profile, { recursive: true, force: true });
