// The example chat app (examples/chat-app, `npm run example`) in headless Chromium: its server
// (the useChat route on chatTurn, a SQLite store, the canned model) as `npm run example` starts it,
// and its page (the AI SDK's chat client, bundled by esbuild) driven as a user would: send, watch
// the answer stream, regenerate, switch between the two answers, reload, restart the server on the
// same file, start a second chat, edit a question ("2 / 2" on it live and after a reload). Skips,
// saying why, where no Chromium starts (chromium-find.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../package/fixture.js";
import { findChromium } from "./chromium-find.js";

const found = await findChromium();
if ("why" in found) {
  console.warn(
    `chat-app.test.ts: skipped, no browser: ${found.why}. Enable it with: sudo apt-get install -y chromium (.ci/run does it).`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "ctxloom-chat-app-"));
const db = join(dir, "chats.db");
let server: { child: ChildProcess; url: string } | undefined;
let browser: Browser | undefined;

/** Starts the app as `npm run example` does (tsx on server.ts), on a free port; resolves with its address once it listens. */
function start(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, "node_modules/tsx/dist/cli.mjs"), "examples/chat-app/server.ts"],
    {
      cwd: repoRoot,
      env: { ...process.env, PORT: "0", CHAT_DB: db, AI_GATEWAY_API_KEY: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /chat app on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the app exited (${code}) before listening:\n${out}`)));
  });
}

async function stop(s: { child: ChildProcess } | undefined): Promise<void> {
  if (!s || s.child.exitCode !== null) return;
  const exited = new Promise((resolve) => s.child.once("exit", resolve));
  s.child.kill("SIGTERM"); // the app closes its Loom (and the SQLite file) on SIGTERM
  await exited;
}

beforeAll(async () => {
  if ("why" in found) return;
  server = await start();
  browser = await chromium.launch({
    executablePath: found.executablePath,
    args: found.args,
    headless: true,
    timeout: 60_000,
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
});

const ready = (page: Page) =>
  page.waitForFunction(() => (globalThis as { chatAppReady?: boolean }).chatAppReady === true, undefined, {
    timeout: 30_000,
  });
const idle = (page: Page) =>
  page.waitForSelector('#status[data-status="ready"]', { state: "attached", timeout: 30_000 });
/** What the page shows: each message's role, text (without its branch bar) and branch label. */
const shown = (page: Page) =>
  page.$$eval(".message", (els) =>
    els.map((el) => ({
      role: (el as HTMLElement).dataset.role,
      text: el.firstChild?.textContent ?? "",
      branch: el.querySelector(".branch-label")?.textContent?.trim() ?? null,
    })),
  );

describe.skipIf("why" in found)("the example chat app in headless Chromium", () => {
  test("send, stream, regenerate, switch answers, reload, restart on the same SQLite file, a second chat in the list, an edit", async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(server!.url, { timeout: 30_000 });
    await ready(page);

    // Send: the answer streams in (seen part-way, while the status says so), then stands whole.
    await page.fill("#input", "Where to eat in Lisbon?");
    await page.click("#send");
    const partial = await page.waitForFunction(
      () => {
        const answer = document.querySelector('.message[data-role="assistant"]');
        const streaming = document.querySelector("#status")?.getAttribute("data-status") === "streaming";
        return streaming && answer && answer.textContent!.length > 0 ? answer.textContent : null;
      },
      undefined,
      { timeout: 30_000, polling: 5 },
    );
    await idle(page);
    const first = await shown(page);
    expect(first.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(first[1]!.text).toMatch(/^Answer 1 to “Where to eat in Lisbon\?”: ctxloom kept this chat/);
    const part = (await partial.jsonValue()) as string;
    expect(part.length).toBeLessThan(first[1]!.text.length);
    expect(first[1]!.text.startsWith(part)).toBe(true);
    expect(first[1]!.branch).toBe(null);
    const chatUrl = page.url();
    expect(chatUrl).toMatch(/\?chat=/);

    // Regenerate: a second answer beside the first, "2 / 2".
    await page.click("#regenerate");
    await page.waitForFunction(
      () => document.querySelector(".branch-label")?.textContent?.trim() === "2 / 2",
      undefined,
      { timeout: 30_000 },
    );
    await idle(page);
    const second = await shown(page);
    expect(second).toEqual([
      { role: "user", text: "Where to eat in Lisbon?", branch: null },
      { role: "assistant", text: expect.stringMatching(/^Answer 2 /), branch: "2 / 2" },
    ]);

    // Switch to the first answer and back.
    await page.click(".prev");
    await page.waitForFunction(
      () => document.querySelector(".branch-label")?.textContent?.trim() === "1 / 2",
      undefined,
      { timeout: 30_000 },
    );
    expect((await shown(page))[1]).toEqual({ role: "assistant", text: first[1]!.text, branch: "1 / 2" });
    await page.click(".next");
    await page.waitForFunction(
      () => document.querySelector(".branch-label")?.textContent?.trim() === "2 / 2",
      undefined,
      { timeout: 30_000 },
    );

    // Reload: the same history, the branch the user left on.
    await page.reload();
    await ready(page);
    expect(await shown(page)).toEqual(second);

    // The server restarts on the same SQLite file: the chat is read back from it.
    await stop(server);
    server = await start();
    await page.goto(`${server.url}/${new URL(chatUrl).search}`);
    await ready(page);
    expect(await shown(page)).toEqual(second);

    // A follow-up goes on from the answer shown; then a second chat; both in the list.
    await page.fill("#input", "And for dessert?");
    await page.click("#send");
    await page.waitForFunction(() => document.querySelectorAll(".message").length === 4, undefined, {
      timeout: 30_000,
    });
    await idle(page);
    expect((await shown(page))[3]!.text).toMatch(/^Answer 1 to “And for dessert\?”/); // the restarted server's first answer
    await page.click("#new-chat");
    expect(await shown(page)).toEqual([]);
    await page.fill("#input", "A second chat");
    await page.click("#send");
    await page.waitForFunction(() => document.querySelectorAll("#chats li").length === 2, undefined, {
      timeout: 30_000,
    });
    await idle(page);
    const titles = await page.$$eval("#chats li", (els) => els.map((el) => el.textContent));
    expect(titles).toEqual(["A second chat", "Where to eat in Lisbon?"]); // the most recently active first
    // Back to the first chat from the list: its four messages.
    await page.click("#chats li:nth-child(2)");
    await page.waitForFunction(() => document.querySelectorAll(".message").length === 4, undefined, {
      timeout: 30_000,
    });

    // Edit the follow-up: "2 / 2" on the user's message while the answer streams, as after a reload.
    await page.click('.message[data-role="user"]:nth-child(3) .edit');
    await page.fill("#input", "And for coffee?");
    await page.click("#send");
    await page.waitForFunction(
      () =>
        document.querySelector('.message[data-role="user"]:nth-child(3) .branch-label')?.textContent?.trim() ===
        "2 / 2",
      undefined,
      { timeout: 30_000 },
    );
    await idle(page);
    const edited = await shown(page);
    expect(edited.slice(2)).toEqual([
      { role: "user", text: "And for coffee?", branch: "2 / 2" },
      { role: "assistant", text: expect.stringMatching(/to “And for coffee\?”/), branch: null },
    ]);
    await page.reload();
    await ready(page);
    expect(await shown(page)).toEqual(edited);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);
});
