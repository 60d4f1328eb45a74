// Growth: bytes a message takes on disk in each store, written as an application writes them (a
// Loom appending the OASST texts of corpus.ts, chats of 100, recall off): SQLite (the file after
// close), PostgreSQL (its tables, indexes and TOAST), a Durable Object and D1 (workerd through
// miniflare: the database's size), the browser (headless Chromium: the site's IndexedDB usage).
// Beside them, a peer measured here: LangGraph's checkpointer (@langchain/langgraph with
// MemorySaver: the bytes its serializer makes of every checkpoint and pending write),
// for chats of the same texts.
// Alone: node --import ./bench/ts-loader.mjs bench/growth.bench.ts [--smoke]
import { build } from "esbuild";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { chromium } from "playwright-core";
import { Loom } from "../src/index.js";
import { postgresStore } from "../src/postgres.js";
import { sqliteStore } from "../src/sqlite.js";
import type { Store } from "../src/store-entry.js";
import { noPostgresNotice, startCluster } from "../test/store/pg-cluster.js";
import { findChromium } from "../test/runtime/chromium-find.js";
import { bundleWorker, workerdRuntime } from "../test/runtime/do-runtime.js";
import { corpus } from "./corpus.js";
import { langGraphBytes } from "./growth-peers.js";
import { ROOT, type SuiteReport } from "./report.js";

async function fillLoom(store: Store, texts: string[], chats: number, perChat: number): Promise<void> {
  const loom = await Loom.open({ store, counter: "heuristic", recall: false });
  for (let c = 0; c < chats; c++) {
    const chat = await loom.user("u").create({ id: `c${c}` });
    for (let i = 0; i < perChat; i++)
      await chat.append({ role: i % 2 ? "assistant" : "user", content: texts[(c * perChat + i) % texts.length]! });
  }
  await loom.close();
}

export async function runGrowthSuite({ smoke = false }: { smoke?: boolean } = {}): Promise<SuiteReport> {
  const [chats, perChat] = smoke ? [2, 50] : [50, 100];
  const n = chats * perChat;
  const texts = corpus();
  const used = Array.from({ length: n }, (_, i) => texts[i % texts.length]!);
  const textBytes = used.reduce((sum, t) => sum + new TextEncoder().encode(t).length, 0) / n;
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-growth-"));
  const rows: Record<string, string | number>[] = [];
  const row = (store: string, bytes: number | null, how: string) =>
    rows.push({
      store,
      "bytes a message": bytes === null ? "-" : Math.round(bytes / n),
      "x the text": bytes === null ? "-" : +(bytes / n / textBytes).toFixed(2),
      measured: how,
    });
  try {
    const file = join(dir, "growth.db");
    await fillLoom(sqliteStore(file), texts, chats, perChat);
    row("SQLite (ctxloom/sqlite)", statSync(file).size, "the file after close()");

    if (noPostgresNotice()) row("PostgreSQL (ctxloom/postgres)", null, "no server here");
    else {
      const cluster = await startCluster();
      try {
        await fillLoom(postgresStore(cluster.url, { tablePrefix: "growth_" }), texts, chats, perChat);
        const pool = new pg.Pool({ connectionString: cluster.url });
        await pool.query("VACUUM ANALYZE");
        const sizes = await pool.query(
          "SELECT sum(pg_total_relation_size(oid))::bigint AS n FROM pg_class WHERE relname IN ('growth_chats', 'growth_messages', 'growth_embeddings')",
        );
        await pool.end();
        row(
          "PostgreSQL (ctxloom/postgres)",
          Number(sizes.rows[0].n),
          "tables, indexes and TOAST (pg_total_relation_size)",
        );
      } finally {
        cluster.stop();
      }
    }

    const mf = workerdRuntime(
      await bundleWorker("bench/growth-worker.ts"),
      join(dir, "workerd"),
      { CHATS: { className: "GrowthChats", useSQLite: true } },
      { d1Databases: { DB: "growth" } },
    );
    try {
      const fill = async (path: string) => {
        let bytes = 0;
        for (let from = 0; from < chats; from += 10) {
          const body = JSON.stringify({ texts: used, chats: Math.min(10, chats - from), perChat, from });
          const r = await mf.dispatchFetch(`http://localhost${path}`, { method: "POST", body });
          if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
          bytes = ((await r.json()) as { bytes: number }).bytes;
        }
        return bytes;
      };
      row("Durable Object (ctxloom/cloudflare)", await fill("/do"), "the object's databaseSize");
      row("D1 (ctxloom/cloudflare)", await fill("/d1"), "the database's size (meta.size_after)");
    } finally {
      await mf.dispose();
    }

    const found = await findChromium();
    if ("why" in found) row("browser IndexedDB (ctxloom/browser)", null, `no browser: ${found.why}`);
    else {
      const out = await build({
        entryPoints: [join(ROOT, "bench/growth-page.ts")],
        bundle: true,
        format: "esm",
        platform: "browser",
        write: false,
        logLevel: "silent",
        conditions: ["browser"],
      });
      const server = createServer((req, res) => {
        if (req.url === "/page.js")
          res.writeHead(200, { "content-type": "text/javascript" }).end(out.outputFiles[0]!.text);
        else
          res
            .writeHead(200, { "content-type": "text/html" })
            .end(`<!doctype html><script type="module" src="/page.js"></script>`);
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const context = await chromium.launchPersistentContext(join(dir, "profile"), {
        executablePath: found.executablePath,
        args: found.args,
        headless: true,
      });
      try {
        const page = await context.newPage();
        await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
        await page.waitForFunction(() => "ctxloomFill" in globalThis);
        const bytes = await page.evaluate(
          ([t, c, p]) =>
            (globalThis as unknown as { ctxloomFill(...a: unknown[]): Promise<number> }).ctxloomFill(t, c, p),
          [texts, chats, perChat] as const,
        );
        row("browser IndexedDB (ctxloom/browser)", bytes, "navigator.storage.estimate() (Chromium, compressed)");
      } finally {
        await context.close();
        server.close();
      }
    }

    for (const turns of smoke ? [10] : [50, 500]) {
      const peer = await langGraphBytes(texts, turns);
      rows.push({
        store: `LangGraph checkpointer, a chat of ${turns * 2} messages`,
        "bytes a message": Math.round(peer / (turns * 2)),
        "x the text": +(peer / (turns * 2) / textBytes).toFixed(2),
        measured: "MemorySaver's serialized checkpoints and pending writes",
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const headers = Object.keys(rows[0]!);
  const ours = rows.filter((r) => !String(r.store).startsWith("LangGraph") && typeof r["x the text"] === "number");
  const worst = ours.reduce((a, b) => ((b["x the text"] as number) > (a["x the text"] as number) ? b : a), ours[0]!);
  return {
    name: "growth",
    tables: [
      {
        title: `Bytes a message takes on disk: ${n.toLocaleString("en-US")} messages (chats of ${perChat}, OASST texts of ${Math.round(textBytes)} bytes on average)`,
        rows,
      },
    ],
    goals: [
      {
        goal: "bytes a message takes on disk, in every store of ctxloom measured (the text, its numbers, its key and indexes)",
        target: "<= 3x the text",
        measured: `${worst["x the text"]}x (${worst.store})`,
        pass: (worst["x the text"] as number) <= 3,
      },
    ],
    markdown: [
      `| ${headers.join(" | ")} |`,
      `|${headers.map((h) => (h === "store" || h === "measured" ? "---" : "---:")).join("|")}|`,
      ...rows.map(
        (r) =>
          `| ${headers.map((h) => (typeof r[h] === "number" ? r[h].toLocaleString("en-US") : r[h])).join(" | ")} |`,
      ),
    ].join("\n"),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await runGrowthSuite({ smoke: process.argv.includes("--smoke") });
  console.log(report.markdown);
}
