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
import { expectedAttacks } from "../adapters/memory-attack-cases.js";
import { expectedMemoryContext } from "../memory/context-cases.js";
import { expectedMemoryApi, expectedMemoryBad } from "../memory/memory-cases.js";
import { contractPassed } from "../store/contract-run.js";
import { expectedErasure, expectedMemoryErasure, expectedPrune } from "../store/retention-cases.js";
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
    entryPoints: [join(root, "test/runtime/browser-store-page.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
    conditions: ["browser"],
  });
  const code = out.outputFiles[0]!.text;
  server = createServer((req, res) => {
    if (req.url === "/")
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>`);
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
  return chromium.launchPersistentContext(dir, {
    executablePath: found.executablePath,
    args: found.args,
    headless: true,
    timeout: 60_000,
  });
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
  page.evaluate(
    ([n, a]) =>
      (
        (globalThis as unknown as { ctxloomPage: Api }).ctxloomPage[n as string]! as (
          ...x: unknown[]
        ) => Promise<unknown>
      )(...(a as unknown[])),
    [name, args] as const,
  ) as Promise<T>;

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
      ask<number[]>(
        a,
        "append",
        "shared",
        Array.from({ length: 15 }, (_, i) => `a${i}`),
      ),
      ask<number[]>(
        b,
        "append",
        "shared",
        Array.from({ length: 15 }, (_, i) => `b${i}`),
      ),
    ]);
    expect([...fromA, ...fromB].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const fresh = await tab(context);
    const all = await ask<Dump>(fresh, "dump", "shared");
    expect(all.messages.map((m) => m[0])).toEqual(Array.from({ length: 31 }, (_, i) => i));
    expect(all.messages.map((m) => m[2]).sort()).toEqual(
      ["start", ...fromA.map((_, i) => `a${i}`), ...fromB.map((_, i) => `b${i}`)].sort(),
    );
    // Each tab's messages form a chain of their own (a tab appends under its own head): the two races make branches.
    const parentOf = new Map(all.messages.map(([id, parent]) => [id, parent]));
    for (const ids of [fromA, fromB])
      for (let i = 1; i < ids.length; i++) expect(parentOf.get(ids[i]!)).toBe(ids[i - 1]);
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

  it("passes every case of the store contract (ctxloom/store/contract)", async () => {
    const context = await launch(join(profiles, "contract"));
    const out = await ask(await tab(context), "contract");
    await context.close();
    expect(out).toEqual({ cases: contractPassed() });
  }, 120_000);

  it("a user's erasure and a prune, as on every store; their working memories and a pruned chat's go too, no record left", async () => {
    const context = await launch(join(profiles, "retention"));
    const out = (await ask(await tab(context), "retention")) as {
      erase: unknown;
      prune: unknown;
      memory: unknown;
      left: unknown;
    };
    await context.close();
    expect(out.erase).toEqual(expectedErasure());
    expect(out.prune).toEqual(expectedPrune());
    expect(out.memory).toEqual(expectedMemoryErasure());
    expect(out.left).toEqual([["bob", "", 1, "prefs.md"]]);
  }, 120_000);
});

// Issue 34 in the browser: a user's working memory in IndexedDB, through the API and across tabs;
// a database of release 1 upgraded with its chats kept.
describe.skipIf("why" in found)(
  "the browser's IndexedDB store: working memories and its database's upgrade (headless Chromium)",
  () => {
    it("revisions, merges and conflicts, a chat's own memory, exports; bad calls refused, nothing changed; every context carries it; the memory tool's attacks refused", async () => {
      const context = await launch(join(profiles, "memory-api"));
      const out = await ask(await tab(context), "memoryApi", "mona");
      await context.close();
      expect(out).toEqual({
        api: expectedMemoryApi("mona"),
        bad: expectedMemoryBad(),
        context: expectedMemoryContext(),
        attacks: expectedAttacks(),
      });
    }, 180_000);

    it("two tabs writing one memory at once, each on the revision it read: every write lands once, revisions dense, none lost", async () => {
      const context = await launch(join(profiles, "tabs-memory"));
      const [a, b] = [await tab(context), await tab(context)];
      await Promise.all([ask<number>(a, "memoryWrites", "a", 20), ask<number>(b, "memoryWrites", "b", 20)]);
      const history = await ask<[number, string][]>(await tab(context), "memoryHistory");
      await context.close();
      expect(history.map(([revision]) => revision)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      const names = (tag: string) => Array.from({ length: 20 }, (_, i) => `${tag}${i}.md`);
      expect(history.map(([, path]) => path).sort()).toEqual([...names("a"), ...names("b")].sort());
      for (const tag of ["a", "b"])
        expect(history.filter(([, p]) => p.startsWith(tag)).map(([, p]) => p)).toEqual(names(tag)); // each tab's in its order
    }, 120_000);

    it("a database made by release 1 opens upgraded: every chat, message, key and vector kept, memories kept beside them", async () => {
      const context = await launch(join(profiles, "upgrade"));
      const out = (await ask(await tab(context), "upgrade")) as Record<string, unknown>;
      await context.close();
      const m = { priority: "normal", kind: "message" };
      const call = { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Porto"}' } };
      const erin = [
        { ...m, id: 0, parentId: null, role: "user", content: "weather?", tokens: 9, createdAt: 10, name: "ann" },
        { ...m, id: 1, parentId: 0, role: "assistant", content: "", tokens: 7, createdAt: 11, toolCalls: [call] },
        { ...m, id: 2, parentId: 1, role: "tool", content: "sunny", tokens: 4, createdAt: 12.25, toolCallId: "call_1" },
      ];
      expect(out).toEqual({
        erin: {
          chat: {
            id: "c1",
            userId: "erin",
            title: "old",
            model: "gpt-4o",
            system: "be brief",
            createdAt: 1.5,
            updatedAt: 20,
            messageCount: 3,
            head: 2,
            options: { historyLimits: true },
          },
          messages: erin,
        },
        zoe: {
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
          messages: [{ ...m, id: 0, parentId: null, role: "user", content: "hers", tokens: 3, createdAt: 5 }],
        },
        vectors: [[0, [1, -2]]],
        retry: { ok: false, existing: erin[0] }, // a key of release 1's still finds its message
        added: 3,
        memory: {
          own: [
            { ok: true },
            {
              revision: 1,
              at: 40,
              records: [
                {
                  revision: 1,
                  path: "plan.md",
                  kind: "text",
                  content: "the chat's plan",
                  schema: null,
                  by: "app",
                  chatId: "c1",
                  at: 40,
                },
              ],
            },
          ],
          users: ["prefs.md"],
        },
        layout: { version: 2, stores: ["chats", "embeddings", "memory", "messages"], memoryIndexes: ["byPath"] },
        after: { count: 4, zoe: 1 },
      });
    }, 120_000);

    it("a store open while a newer release upgrades the database (another tab): its next call is STORE_FAILED asking to reload", async () => {
      const context = await launch(join(profiles, "newer"));
      const out = await ask<{ code: string; message: string }>(await tab(context), "newer");
      await context.close();
      expect(out.code, JSON.stringify(out)).toBe("STORE_FAILED");
      expect(out.message).toMatch(/VersionError.*newer ctxloom.*reload this page/);
    }, 120_000);
  },
);
