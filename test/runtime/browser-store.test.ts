// Issue 35, item 2: ctxloom/browser's IndexedDB store in headless Chromium (chromium-find.ts):
// chats survive a reload and a restart of the browser on the same profile, two tabs appending to
// one chat at once make branches and lose nothing, a write past the site's quota is STORE_FAILED
// saying so; the store contract, a user's erasure and a prune, run in the page.
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedCodes, expectedExistence } from "../store/contract-cases.js";
import { expectedErasure, expectedPrune } from "../store/retention-cases.js";
import { findChromium } from "./chromium-find.js";

const found = await findChromium();
if ("why" in found) console.warn(`browser-store.test.ts: skipped, no browser: ${found.why}.`);
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const profiles = mkdtempSync(join(tmpdir(), "ctxloom-browser-store-"));
let server: Server;
let origin: string;

beforeAll(async () => {
  if ("why" in found) return;
  const out = await build({
    entryPoints: [join(root, "test/runtime/browser-store-page.ts")], bundle: true, format: "esm", platform: "browser", target: "es2022",
    write: false, logLevel: "silent", conditions: ["browser"],
  });
  const code = out.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>`);
    else if (req.url === "/page.js") res.writeHead(200, { "content-type": "text/javascript" }).end(code);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  rmSync(profiles, { recursive: true, force: true });
});

/** A browser on the profile in `dir` (kept across launches). */
const launch = (dir: string) => {
  if ("why" in found) throw new Error(found.why);
  return chromium.launchPersistentContext(dir, { executablePath: found.executablePath, args: found.args, headless: true, timeout: 60_000 });
};

/** A tab with the page loaded. */
async function tab(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(origin, { timeout: 30_000 });
  await page.waitForFunction(() => "ctxloomReady" in globalThis, undefined, { timeout: 30_000 });
  return page;
}

type Api = Record<string, (...args: never[]) => Promise<unknown>>;
/** Calls the page's `name` with `args`. */
const ask = <T>(page: Page, name: string, ...args: unknown[]): Promise<T> =>
  page.evaluate(([n, a]) => ((globalThis as unknown as { ctxloomPage: Api }).ctxloomPage[n as string]! as (...x: unknown[]) => Promise<unknown>)(...(a as unknown[])), [name, args] as const) as Promise<T>;

type Dump = { messages: [number, number | null, string][]; head: number };

describe.skipIf("why" in found)("the browser's IndexedDB store (headless Chromium)", () => {
  it("a chat survives a reload, and a restart of the browser on the same profile", async () => {
    const dir = join(profiles, "restart");
    let context = await launch(dir);
    let page = await tab(context);
    await ask(page, "create", "kept");
    await ask(page, "append", "kept", ["one", "two", "three"]);
    await page.reload();
    await page.waitForFunction(() => "ctxloomReady" in globalThis);
    const reloaded = await ask<Dump>(page, "dump", "kept");
    expect(reloaded.messages.map((m) => m[2])).toEqual(["one", "two", "three"]);
    await context.close();
    context = await launch(dir);
    page = await tab(context);
    expect(await ask<Dump>(page, "dump", "kept")).toEqual(reloaded);
    await context.close();
  }, 120_000);

  it("two tabs appending to one chat at once: every message once, ids dense, branches where they raced", async () => {
    const context = await launch(join(profiles, "tabs"));
    const [a, b] = [await tab(context), await tab(context)];
    await ask(a, "create", "shared");
    await ask(a, "append", "shared", ["start"]);
    await ask(b, "dump", "shared"); // both tabs hold the chat, head at "start"
    const [fromA, fromB] = await Promise.all([
      ask<number[]>(a, "append", "shared", Array.from({ length: 15 }, (_, i) => `a${i}`)),
      ask<number[]>(b, "append", "shared", Array.from({ length: 15 }, (_, i) => `b${i}`)),
    ]);
    expect([...fromA, ...fromB].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const fresh = await tab(context);
    const all = await ask<Dump>(fresh, "dump", "shared");
    expect(all.messages.map((m) => m[0])).toEqual(Array.from({ length: 31 }, (_, i) => i));
    expect(all.messages.map((m) => m[2]).sort()).toEqual(["start", ...fromA.map((_, i) => `a${i}`), ...fromB.map((_, i) => `b${i}`)].sort());
    // Each tab's messages form a chain of their own (a tab appends under its own head): the two races make branches.
    const parentOf = new Map(all.messages.map(([id, parent]) => [id, parent]));
    for (const ids of [fromA, fromB]) for (let i = 1; i < ids.length; i++) expect(parentOf.get(ids[i]!)).toBe(ids[i - 1]);
    await context.close();
  }, 120_000);

  it("a write past the site's quota fails with STORE_FAILED saying what to do, and nothing is written", async () => {
    const context = await launch(join(profiles, "quota"));
    const page = await context.newPage();
    // The site may keep 300 kB (set before the page opens its database: an open one keeps the quota it found).
    await (await context.newCDPSession(page)).send("Storage.overrideQuotaForOrigin", { origin, quotaSize: 300_000 });
    await page.goto(origin);
    await page.waitForFunction(() => "ctxloomReady" in globalThis);
    await ask(page, "create", "full");
    await ask(page, "append", "full", ["before"]);
    const refused = await ask<{ code: string; message: string }>(page, "tooLarge", "full", 400_000);
    expect(refused.code, JSON.stringify(refused)).toBe("STORE_FAILED");
    expect(refused.message).toMatch(/QuotaExceededError.*storage for this site is full.*prune/s);
    await page.reload();
    await page.waitForFunction(() => "ctxloomReady" in globalThis);
    expect((await ask<Dump>(page, "dump", "full")).messages.map((m) => m[2])).toEqual(["before"]);
    await context.close();
  }, 120_000);

  it("refuses the bad calls every store refuses, with the same codes, and changes nothing; the existence check", async () => {
    const context = await launch(join(profiles, "contract"));
    const out = await ask(await tab(context), "contract");
    await context.close();
    expect(out).toEqual({ codes: expectedCodes(), unchanged: true, exists: expectedExistence() });
  }, 120_000);

  it("a user's erasure and a prune, as on every store", async () => {
    const context = await launch(join(profiles, "retention"));
    const out = (await ask(await tab(context), "retention")) as { erase: unknown; prune: unknown };
    await context.close();
    expect(out.erase).toEqual(expectedErasure());
    expect(out.prune).toEqual(expectedPrune());
  }, 120_000);
});
