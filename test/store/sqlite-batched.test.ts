// Issue 30, item 3: "batched" durability promises that a crash loses at most the writes of the
// last batchDelayMs. It committed on a timer only (and at batchSize writes), and a loop of
// awaited writes never lets a timer run (promises settle first): 900 acknowledged appends, a
// kill, and the chat did not exist. A write that finds the batch batchDelayMs old now commits
// it. Here, in this process: the loop commits with no timer run, and a full disk under such a
// loop loses the open batch only, and says so. The kill is in sqlite-processes.test.ts.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CtxloomError, Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { message, record, tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("sqlite-batched");
/** [id, when its append started, when it was acknowledged] (performance.now()). */
type Acked = [id: number, started: number, done: number];

/**
 * The acknowledged appends a crash right after `lastStarted` (when the last one began) must not
 * lose: those acknowledged batchDelayMs or more before it. A write commits the batch when it
 * finds it batchDelayMs old, so a batch still open then began less than batchDelayMs before
 * `lastStarted`, after all of these were acknowledged.
 */
const owed = (acked: Acked[], lastStarted: number, delay: number): Acked[] =>
  acked.filter(([, , done]) => done <= lastStarted - delay);

describe('"batched" durability under a loop of awaited appends', () => {
  it("commits while the loop runs, though no timer can run: what a crash would leave is all but the last batchDelayMs", async () => {
    const delay = 2;
    const path = file("loop.db");
    const store = sqliteStore(path, { durability: "batched", batchDelayMs: delay, batchSize: 1_000_000 });
    await store.createChat(record());
    await store.flush();
    const reader = new Database(path, { readonly: true }); // another connection sees what is committed
    let timers = 0;
    const tick = setTimeout(() => timers++, 0);
    const acked: Acked[] = [];
    // (at least 25 batchDelayMs after the first acknowledgement: a stall before it, on a busy machine, is not the loop's)
    const long = () => acked.length < 50 || performance.now() - acked[0]![2] < 25 * delay;
    for (let id = 0; long(); id++) {
      const started = performance.now();
      const r = await store.appendMessage({
        userId: "u",
        chatId: "c1",
        message: message({ id, parentId: id === 0 ? null : id - 1, content: `m${id}` }),
        head: id,
        updatedAt: 100 + id,
      });
      expect(r.ok).toBe(true);
      acked.push([id, started, performance.now()]);
    }
    const committed = reader.prepare("SELECT count(*) FROM messages").pluck().get() as number;
    expect(timers).toBe(0); // only promises settled during the loop: no timer ran
    clearTimeout(tick);
    const due = owed(acked, acked.at(-1)![1], delay);
    expect(due.length).toBeGreaterThan(0); // the loop ran many batchDelayMs
    expect(committed).toBeGreaterThanOrEqual(due.length);
    reader.close();
    await store.close();
  });

  it("through a Loom, the same: its appends commit while the loop runs", async () => {
    const delay = 2;
    const path = file("loom-loop.db");
    const loom = await Loom.open({
      engine: "js",
      counter: "heuristic",
      store: sqliteStore(path, { durability: "batched", batchDelayMs: delay, batchSize: 1_000_000 }),
    });
    const chat = await loom.user("u").create({ id: "c1" });
    await loom.flush();
    const reader = new Database(path, { readonly: true });
    const acked: Acked[] = [];
    const long = () => acked.length < 50 || performance.now() - acked[0]![2] < 25 * delay;
    for (let i = 0; long(); i++) {
      const started = performance.now();
      const m = await chat.append({ role: i % 2 ? "assistant" : "user", content: `message ${i}` });
      acked.push([m.id, started, performance.now()]);
    }
    const committed = reader.prepare("SELECT count(*) FROM messages").pluck().get() as number;
    const due = owed(acked, acked.at(-1)![1], delay);
    expect(due.length).toBeGreaterThan(0);
    expect(committed).toBeGreaterThanOrEqual(due.length);
    reader.close();
    await loom.close();
  });

  it("a full disk loses the open batch only (the last batchDelayMs), and every later call, close() too, says how many writes", async () => {
    const delay = 5;
    const path = file("full.db");
    const store = sqliteStore(path, { durability: "batched", batchDelayMs: delay, batchSize: 1_000_000 });
    await store.createChat(record());
    await store.flush();
    const pages = store.database.pragma("page_count", { simple: true }) as number;
    store.database.pragma(`max_page_count = ${pages + 400}`); // about 3 MB more: some 1,400 appends of 2 KB
    const text = "x".repeat(2000);
    const acked: Acked[] = [];
    let failure: CtxloomError | undefined;
    let failedAt = 0;
    for (let id = 0; !failure; id++) {
      const started = performance.now();
      try {
        await store.appendMessage({
          userId: "u",
          chatId: "c1",
          message: message({ id, parentId: id === 0 ? null : id - 1, content: `${id} ${text}` }),
          head: id,
          updatedAt: 100 + id,
        });
        acked.push([id, started, performance.now()]);
      } catch (error) {
        failure = error as CtxloomError;
        failedAt = started;
      }
    }
    expect(failure).toBeInstanceOf(CtxloomError);
    expect(failure!.code).toBe("STORE_FAILED");
    const lost = Number(/could not commit (\d+) acknowledged write\(s\)/.exec(failure!.message)?.[1]);
    expect(failure!.message).toMatch(/full.*Close the Loom and open it again/s);
    for (const call of [() => store.loadChat("u", "c1"), () => store.flush(), () => store.close()]) {
      const e = await call().then(
        () => undefined,
        (x: CtxloomError) => x,
      );
      expect([e?.code, e?.message]).toEqual(["STORE_FAILED", failure!.message]);
    }
    const again = sqliteStore(path);
    const kept = (await again.loadChat("u", "c1"))!.messages;
    await again.close();
    // What the file keeps is a prefix of what was acknowledged, and only the reported writes are missing.
    expect(kept.map((m) => m.content)).toEqual(acked.slice(0, kept.length).map(([id]) => `${id} ${text}`));
    expect(kept.length + lost).toBe(acked.length);
    const due = owed(acked, failedAt, delay);
    expect(due.length).toBeGreaterThan(0); // the loop ran many batchDelayMs before the disk was full
    expect(kept.length).toBeGreaterThanOrEqual(due.length);
  });
});
