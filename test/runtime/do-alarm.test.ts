// Issue 35, item 5: a Durable Object that prunes its own chats with an alarm, in workerd (through
// miniflare): docs/runtimes.md shows test/runtime/chats-object.js, and this test runs it, with a
// prune every 5 s keeping each user's newest 2 chats.
import type { Miniflare } from "miniflare";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { bundleWorker, workerdRuntime } from "./do-runtime.js";

let code: string;
const persist = mkdtempSync(join(tmpdir(), "ctxloom-do-alarm-"));

beforeAll(async () => {
  code = await bundleWorker("test/runtime/chats-object.js", {
    ctxloom: "src/index.workerd.ts",
    "ctxloom/cloudflare": "src/cloudflare.ts",
  });
}, 120_000);
afterAll(() => rmSync(persist, { recursive: true, force: true }));

type Answer = { chats: string[]; pruned: { at: number; chats: number; messages: number } | null; alarm: number | null };

it("the object's alarm prunes its chats (the newest 2 stay), reports it, and schedules the next prune", async () => {
  const mf: Miniflare = workerdRuntime(
    code,
    persist,
    { CHATS: { className: "UserChats", useSQLite: true } },
    {
      bindings: { PRUNE_EVERY_MS: "5000", PRUNE_KEEP: "2" },
    },
  );
  try {
    const ask = async (init?: { method: string; body: string }) =>
      (await (await mf.dispatchFetch("http://localhost/?user=ann", init)).json()) as Answer;
    // Four chats, one after the other: the list then holds them newest first (the prune has not run, 5 s after the first).
    let now!: Answer;
    for (const content of ["one", "two", "three", "four"])
      now = await ask({ method: "POST", body: JSON.stringify({ content }) });
    expect(now.alarm).not.toBeNull();
    expect([now.chats.length, now.pruned]).toEqual([4, null]);
    const newest = now.chats.slice(0, 2);
    for (
      const deadline = Date.now() + 30_000;
      !(now.pruned && now.chats.length === 2) && Date.now() < deadline;
      now = await ask()
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(now.chats).toEqual(newest);
    expect(now.pruned).toMatchObject({ chats: expect.any(Number), messages: expect.any(Number) });
    expect(now.alarm).toBeGreaterThan(now.pruned!.at); // the next prune is scheduled
  } finally {
    await mf.dispose();
  }
}, 120_000);
