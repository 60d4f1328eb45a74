// The SQLite store across processes: a child killed with SIGKILL in the middle of its appends
// leaves a database that opens with every acknowledged append and a consistent tree; two
// processes appending to one chat at once serialize into dense ids with the parents they meant.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Loom, type Message } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import type { Durability } from "../../src/store-entry.js";
import { record, tempFolder } from "./sqlite-helpers.js";
import { seeded } from "../seeded.js";

const file = tempFolder("sqlite-processes");
/** The children's pauses between appends are seeded from this (handed over as CTXLOOM_SEED). */
const pauses = seeded("sqlite-processes.test.ts writer pauses");
const CHILD = join(dirname(fileURLToPath(import.meta.url)), "fixtures/sqlite-child.ts");
type Row = [id: number, parent: number | null, content: string];

/** Runs the child; `onLine` may return "kill" to SIGKILL it. Resolves with the lines it printed. */
function runChild(
  args: string[],
  // biome-ignore lint/suspicious/noConfusingVoidType: the callbacks are statements that return nothing, or "kill"
  onLine: (line: number, text: string, stdin: NodeJS.WritableStream) => "kill" | void = () => undefined,
): Promise<{ lines: string[]; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], {
      cwd: dirname(CHILD),
      env: { ...process.env, NODE_OPTIONS: "", CTXLOOM_SEED: String(pauses.seed) },
    });
    const lines: string[] = [];
    let buffer = "";
    let stderr = "";
    proc.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (onLine(lines.length, lines[lines.length - 1]!, proc.stdin) === "kill") proc.kill("SIGKILL");
      }
    });
    proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    proc.on("error", reject);
    proc.on("close", (code, signal) => {
      if (code !== 0 && signal === null) reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolve({ lines, signal, stderr });
    });
  });
}

/** Everything the file holds for the chat, checked for consistency: dense ids, parents before children, a valid head. */
async function readBack(path: string, chatId: string): Promise<{ messages: Message[]; head: number | null }> {
  const store = sqliteStore(path);
  const loaded = (await store.loadChat("u", chatId))!;
  await store.close();
  const { messages, chat } = loaded;
  expect(messages.map((m) => m.id)).toEqual(messages.map((_, i) => i));
  for (const m of messages) expect(m.parentId === null || (m.parentId >= 0 && m.parentId < m.id)).toBe(true);
  expect(chat.messageCount).toBe(messages.length);
  expect(chat.head === null || (chat.head >= 0 && chat.head < messages.length)).toBe(true);
  // And a Loom restores it (its own checks refuse orphans and broken tool units).
  const loom = await Loom.open({ engine: "js", counter: "heuristic", store: sqliteStore(path) });
  const opened = await loom.user("u").open(chatId);
  expect(opened.messageCount).toBe(messages.length);
  await loom.close();
  return { messages, head: chat.head };
}

describe.each([
  ["full", 10],
  ["batched", 4],
] as [Durability, number][])("SIGKILL in the middle of appends (%s durability, %i kills)", (durability, kills) => {
  it("every run leaves a database that opens, holds what was acknowledged, and stays consistent", {
    timeout: 120_000,
  }, async () => {
    const path = file(`crash-${durability}.db`);
    const setup = sqliteStore(path);
    await setup.createChat(record({ id: "c1", model: "gpt-4o" }));
    await setup.close();
    const acknowledged = new Map<number, Row>();
    const { seed, random } = seeded(`sqlite-processes.test.ts kill points (${durability})`);
    for (let run = 0; run < kills; run++) {
      const killAt = 20 + Math.floor(random() * 400);
      const { lines, signal } = await runChild(["crash", path, durability, "c1"], (n) =>
        n === killAt ? "kill" : undefined,
      );
      expect(signal, `seed ${seed}, run ${run} ended by itself before ${killAt} appends`).toBe("SIGKILL");
      const acked = lines.filter((l) => l.startsWith("[")).map((l) => JSON.parse(l) as Row);
      const { messages } = await readBack(path, "c1");
      const present = acked.filter(([id]) => id < messages.length);
      if (durability === "full") {
        expect(present).toEqual(acked); // every acknowledged append survived
      } else {
        expect(present).toEqual(acked.slice(0, present.length)); // a prefix: never reordered or renumbered
      }
      for (const row of present) acknowledged.set(row[0], row);
      for (const [id, parent, content] of acknowledged.values()) {
        expect([messages[id]!.parentId, messages[id]!.content]).toEqual([parent, content]);
      }
    }
  });
});

// Issue 30, item 3: a loop of awaited appends never lets the batch's timer run; a write commits a batch batchDelayMs old.
describe('"batched" durability: a loop of awaited appends, killed', () => {
  it("the file holds every acknowledged append but those of the last batchDelayMs", { timeout: 120_000 }, async () => {
    const delay = 20;
    const path = file("timed.db");
    const setup = sqliteStore(path);
    await setup.createChat(record({ id: "c1", model: "gpt-4o" }));
    await setup.close();
    type Acked = [id: number, started: number, done: number];
    // The child appends for 15 batchDelayMs, then waits without running anything: killed then.
    const out = file("timed.json");
    const { lines, signal } = await runChild(["timed", path, String(delay), String(15 * delay), out], (_, text) =>
      text === '"appended"' ? "kill" : undefined,
    );
    expect([signal, lines]).toEqual(["SIGKILL", ['"appended"']]);
    const acked = JSON.parse(readFileSync(out, "utf8")) as Acked[];
    const { messages } = await readBack(path, "c1");
    // A write commits the batch it finds batchDelayMs old: a batch open at the kill began less
    // than batchDelayMs before the last append started, after the appends acknowledged before that.
    const lastStarted = acked.at(-1)![1];
    const owed = acked.filter(([, , done]) => done <= lastStarted - delay);
    expect(owed.length).toBeGreaterThan(0);
    expect(messages.length).toBeGreaterThanOrEqual(owed.length);
    // A prefix of what was acknowledged, with the same ids.
    for (const [id] of acked.filter(([id]) => id < messages.length))
      expect(messages[id]!.content).toBe(`message ${id}`);
  });
});

describe("two processes appending to one chat", () => {
  it("every acknowledged row is present once, ids are dense, and each keeps the parent its writer meant", {
    timeout: 120_000,
  }, async () => {
    const path = file("writers.db");
    const setup = sqliteStore(path);
    await setup.createChat(record({ id: "c1" }));
    await setup.close();
    const n = 250;
    // Each writer says "ready" once it has opened the store; both get "go" when both are ready.
    const waiting: NodeJS.WritableStream[] = [];
    const onLine = (_: number, text: string, stdin: NodeJS.WritableStream) => {
      if (text !== '"ready"') return;
      waiting.push(stdin);
      if (waiting.length === 2) for (const s of waiting) s.write("go\n");
    };
    const [a, b] = await Promise.all([
      runChild(["writer", path, "a", String(n)], onLine),
      runChild(["writer", path, "b", String(n)], onLine),
    ]);
    const rows = [...a.lines, ...b.lines].filter((l) => l !== '"ready"').map((l) => JSON.parse(l) as Row);
    expect(rows).toHaveLength(2 * n);
    const { messages } = await readBack(path, "c1");
    expect(messages).toHaveLength(2 * n);
    for (const [id, parent, content] of rows)
      expect([messages[id]!.parentId, messages[id]!.content]).toEqual([parent, content]);
    expect(new Set(messages.map((m) => m.content)).size).toBe(2 * n);
    // The writers interleaved (the test would prove little otherwise): some appends conflicted and retried.
    const byA = rows.filter(([, , c]) => c.startsWith("a")).map(([id]) => id);
    expect(byA.some((id, i) => i > 0 && id !== byA[i - 1]! + 1)).toBe(true);
  });
});

describe.each(["wasm", "js"] as const)(
  "two processes, each with its own Loom (%s engine), appending to one chat",
  (engine) => {
    it("every acknowledged append is present once, ids are dense, each keeps its writer's parent, and both Looms agree after refresh()", {
      timeout: 120_000,
    }, async () => {
      const path = file(`loom-writers-${engine}.db`);
      const setup = sqliteStore(path);
      await setup.createChat(record({ id: "c1" }));
      await setup.close();
      const n = 150;
      // Both start together on "go"; both refresh once both printed "done".
      const ready: NodeJS.WritableStream[] = [];
      const done: NodeJS.WritableStream[] = [];
      const onLine = (_: number, text: string, stdin: NodeJS.WritableStream) => {
        const wait = text === '"ready"' ? ready : text === '"done"' ? done : null;
        if (!wait) return;
        wait.push(stdin);
        if (wait.length === 2) for (const s of wait) s.write("go\n");
      };
      const args = (tag: string) => ["loom-writer", path, tag, String(n), engine];
      const [a, b] = await Promise.all([runChild(args("a"), onLine), runChild(args("b"), onLine)]);
      const acked = (lines: string[]) => lines.filter((l) => l.startsWith("[")).map((l) => JSON.parse(l) as Row);
      const views = [a, b].map(
        (c) => JSON.parse(c.lines.at(-1)!) as { size: number; head: number | null; rows: Row[]; leaves: number[] },
      );
      const rows = [...acked(a.lines), ...acked(b.lines)];
      expect(rows).toHaveLength(2 * n);
      const { messages, head } = await readBack(path, "c1");
      expect(messages).toHaveLength(2 * n);
      expect(new Set(rows.map(([id]) => id)).size).toBe(2 * n); // no id acknowledged twice
      for (const [id, parent, content] of rows)
        expect([messages[id]!.parentId, messages[id]!.content]).toEqual([parent, content]);
      // Each writer's appends form one chain under its own head: the parent it meant is its previous message.
      for (const [tag, lines] of [
        ["a", a.lines],
        ["b", b.lines],
      ] as const) {
        const mine = acked(lines);
        expect(mine.map(([, , c]) => c)).toEqual(Array.from({ length: n }, (_, i) => `${tag}${i}`));
        mine.forEach(([, parent], i) => expect(parent).toBe(i === 0 ? null : mine[i - 1]![0])); // the chat was empty when both opened it
      }
      // After refresh() both Looms hold exactly what the file holds, with the stored head.
      const stored = messages.map((m) => [m.id, m.parentId, m.content]);
      for (const view of views) {
        expect(view.size).toBe(2 * n);
        expect(view.rows).toEqual(stored);
        expect(view.head).toBe(head);
      }
      expect(views[0]!.leaves).toEqual(views[1]!.leaves);
      // The writers interleaved: each had to catch up on the other's appends at least once.
      const byA = acked(a.lines).map(([id]) => id);
      expect(byA.some((id, i) => i > 0 && id !== byA[i - 1]! + 1)).toBe(true);
    });
  },
);
