// Issue 34, goal: no lost update among concurrent writers of one user's memory, on SQLite (Looms
// on their own connections to one file) and PostgreSQL (Looms on their own pools). Writers, each
// in its own Loom, run random operations at once: a model's tool appending a line to a shared
// file (retried by the tool when another write lands first), the app updating its own key of a
// typed object on a revision it read (merged), the app rewriting a shared file or a shared key
// on a revision it read (landed, or refused with MEMORY_CONFLICT). Then: every write that landed
// is in the memory, none refused is, the history holds exactly the writes that landed, and it
// replays into the memory read.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CtxloomError, Loom, type JsonObject, type Memory, type MemoryRecord, type Store } from "../../src/index.js";
import { anthropicMemoryTool } from "../../src/anthropic.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { clusterForFile } from "../store/pg-file.js";
import { tempFolder } from "../store/sqlite-helpers.js";

const file = tempFolder("memory-concurrency");
const postgres = clusterForFile();

type Op = "tool-append" | "own-key" | "shared-file" | "shared-key";
const OPS: Op[] = ["tool-append", "own-key", "shared-file", "shared-key"];

interface Outcome {
  writer: number;
  step: number;
  op: Op;
  landed: boolean;
  code?: string;
}

/** A pause of 0 to 2 turns of the event loop: the writers' reads and writes interleave. */
const pause = (turns: number) =>
  new Promise<void>((resolve) => (turns === 0 ? resolve() : setImmediate(() => void pause(turns - 1).then(resolve))));

/** Runs one writer's operations on its own Loom's memory; what each did. */
async function writer(memory: Memory, w: number, ops: [Op, number][]): Promise<Outcome[]> {
  const tool = anthropicMemoryTool(memory, { maxDocuments: 10 });
  const out: Outcome[] = [];
  for (const [step, [op, turns]] of ops.entries()) {
    const tag = `w${w}-${step}`;
    try {
      if (op === "tool-append") {
        const answer = await tool.run({
          command: "insert",
          path: "/memories/log.md",
          insert_line: 0,
          insert_text: tag,
        });
        if (answer.startsWith("Error: ")) throw new Error(answer);
      } else {
        const read = await memory.read();
        await pause(turns);
        if (op === "own-key")
          await memory.update({ path: "state", patch: { [`w${w}`]: step }, revision: read.revision });
        if (op === "shared-key") await memory.update({ path: "state", patch: { last: tag }, revision: read.revision });
        if (op === "shared-file") {
          const doc = read.documents.find((d) => d.path === "shared.md");
          await memory.write({
            path: "shared.md",
            text: `${doc?.kind === "text" ? doc.text : ""}\n${tag}`,
            revision: read.revision,
          });
        }
      }
      out.push({ writer: w, step, op, landed: true });
    } catch (error) {
      if (!(error instanceof CtxloomError) || error.code !== "MEMORY_CONFLICT") throw error;
      out.push({ writer: w, step, op, landed: false, code: error.code });
    }
  }
  return out;
}

/** Lost updates: writes that landed and are not in the memory, writes refused that are; and the history against the writes. */
async function audit(
  memory: Memory,
  outcomes: Outcome[],
): Promise<{ lost: string[]; phantom: string[]; history: string[] }> {
  const { documents } = await memory.read();
  const text = (path: string) => {
    const d = documents.find((x) => x.path === path);
    return d?.kind === "text" ? d.text.split("\n") : [];
  };
  const state = (documents.find((d) => d.path === "state") as { value: JsonObject } | undefined)?.value ?? {};
  const [log, shared] = [text("log.md"), text("shared.md")];
  const lost: string[] = [];
  const phantom: string[] = [];
  for (const o of outcomes) {
    const tag = `w${o.writer}-${o.step}`;
    const seen =
      o.op === "tool-append"
        ? log.filter((l) => l === tag).length
        : o.op === "shared-file"
          ? shared.filter((l) => l === tag).length
          : undefined;
    if (seen !== undefined) {
      if (o.landed && seen !== 1) lost.push(`${o.op} ${tag} landed, seen ${seen} times`);
      if (!o.landed && seen !== 0) phantom.push(`${o.op} ${tag} refused, seen`);
    }
  }
  // Own keys: each writer's last landed step; the shared key: the last landed one, by revision.
  for (const w of new Set(outcomes.map((o) => o.writer))) {
    const last = outcomes.filter((o) => o.writer === w && o.op === "own-key" && o.landed).at(-1);
    if (last && state[`w${w}`] !== last.step)
      lost.push(`own-key of w${w}: ${String(state[`w${w}`])}, not ${last.step}`);
  }
  // The history: one revision per write that landed (and the 3 that made the documents), replaying into what was read.
  const history = await memory.history();
  const revisions = new Set(history.map((r) => r.revision)).size;
  const landed = outcomes.filter((o) => o.landed).length;
  const problems: string[] = [];
  if (revisions !== landed + 3)
    problems.push(`${revisions} revisions for ${landed} writes (and the 3 that made the documents)`);
  const replayed = new Map<string, MemoryRecord>();
  for (const r of history) replayed.set(r.path, r);
  const now = [...replayed.values()]
    .filter((r) => r.kind !== "deleted")
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map((r) => [r.path, r.content]);
  const read = documents.map((d) => [d.path, d.kind === "text" ? d.text : JSON.stringify(d.value)]);
  if (JSON.stringify(now) !== JSON.stringify(read)) problems.push("the history does not replay into the memory read");
  const lastShared = history.filter((r) => r.path === "state").at(-1);
  if (
    lastShared &&
    state.last !== undefined &&
    !JSON.stringify(JSON.parse(lastShared.content)).includes(String(state.last))
  )
    problems.push("the shared key is not its last write's");
  return { lost, phantom, history: problems };
}

const opsArb = fc.array(fc.tuple(fc.constantFrom(...OPS), fc.integer({ min: 0, max: 2 })), {
  minLength: 4,
  maxLength: 10,
});

const STORES: [string, boolean, () => Store, number][] = [
  [
    "sqlite",
    false,
    (() => {
      let path: string | undefined;
      return () => sqliteStore((path ??= file("shared.db")));
    })(),
    6,
  ],
  ["postgres", postgres.skip, () => postgresStore(postgres.url(), { tablePrefix: "concurrency_", max: 4 }), 4],
];

describe("concurrent writers of one memory: no lost update", () => {
  for (const [name, skip, store, runs] of STORES) {
    it.skipIf(skip)(
      `${name}: Looms on their own connections, writing at once`,
      async () => {
        const looms = await Promise.all(
          Array.from({ length: 4 }, () => Loom.open({ store: store(), counter: "heuristic" })),
        );
        let user = 0;
        let totals = { landed: 0, refused: 0 };
        await fc.assert(
          fc.asyncProperty(fc.array(opsArb, { minLength: 4, maxLength: 4 }), async (plans) => {
            const id = `user-${++user}`;
            // The typed object whose keys the writers update, and the shared files, made first (revisions 1 to 3).
            const memory = looms[0]!.user(id).memory;
            await memory.write({ path: "state", value: {}, schema: { type: "object" }, revision: 0 });
            await memory.write({ path: "log.md", text: "", revision: 1 });
            await memory.write({ path: "shared.md", text: "", revision: 2 });
            const chats = await Promise.all(looms.map((l, i) => l.user(id).create({ id: `chat-${i}` })));
            const outcomes = (await Promise.all(plans.map((ops, w) => writer(chats[w]!.memory, w, ops)))).flat();
            const found = await audit(looms[0]!.user(id).memory, outcomes);
            totals = {
              landed: totals.landed + outcomes.filter((o) => o.landed).length,
              refused: totals.refused + outcomes.filter((o) => !o.landed).length,
            };
            expect(found).toEqual({ lost: [], phantom: [], history: [] });
          }),
          { numRuns: runs },
        );
        console.log(`${name}: ${totals.landed} writes landed, ${totals.refused} refused with MEMORY_CONFLICT, 0 lost`);
        expect(totals.refused).toBeGreaterThan(0); // the writers did race
        await Promise.all(looms.map((l) => l.close()));
      },
      180_000,
    );
  }
});
