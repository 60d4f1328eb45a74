// What the D1 Worker (d1-worker.ts) runs for the memory write's compare-and-set, which D1 says in
// SQL (src/store/d1-memory.ts): writes too large for one statement (in chunks, one batch), alone,
// on a revision that moved, and racing; a chat deleted while its memory is written, rows checked
// in the database itself. No test framework here: the worker bundles this file.
import type { ChatRecord, MemoryRecord, Store } from "../../src/store-entry.js";

const chat = (id: string): ChatRecord => ({
  id,
  userId: "u",
  title: "t",
  model: "gpt-4o",
  system: null,
  createdAt: 1,
  updatedAt: 1,
  messageCount: 0,
  head: null,
  options: {},
});
/** A text of about 96,000 characters that JSON writes in about 256 kB (3 bytes, 6 escaped, 2, 4, 1). */
const big = (tag: string) => `${tag} ${"漢\u0000é🦜x".repeat(16_000)}`;
/** Records of revisions 1 to `n` (`n` of them, each large: a write of several chunks). */
const bigWrite = (tag: string, n: number, chatId: string | null = null): MemoryRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    revision: i + 1,
    path: `doc${i}.md`,
    kind: "text",
    content: big(`${tag} ${i}`),
    schema: null,
    by: "app",
    chatId,
    at: 1000 + i,
  }));
const small = (revision: number, path: string, chatId: string | null = null): MemoryRecord => ({
  revision,
  path,
  kind: "text",
  content: `${path} at ${revision}`,
  schema: null,
  by: "model",
  chatId,
  at: 5,
});
const code = async (call: () => unknown): Promise<string> => {
  try {
    await call();
    return "ok";
  } catch (error) {
    return String((error as { code?: unknown }).code ?? `not coded: ${String(error)}`);
  }
};
const sameRecords = (a: MemoryRecord[], b: MemoryRecord[]) => JSON.stringify(a) === JSON.stringify(b);

/** The cases (tables "<p>" per case); `rows` reads the database itself. */
export async function memoryRaces(
  store: (prefix: string) => Store,
  rows: (sql: string) => Promise<unknown[][]>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const s = store("bigmem_") as Required<Store>;
  // One write of 12 large records (about 3 MB of JSON: several statements in one batch).
  const first = bigWrite("first", 12, "c \u0000 1");
  out["a large write"] = await s.writeMemory({ userId: "u", chatId: null, expected: 0, records: first });
  out["read back exactly"] = sameRecords(await s.loadMemoryHistory("u", null), first);
  out["no mark left"] = (await rows("SELECT count(*) FROM bigmem_memory WHERE chat LIKE 'ctxloom-write-%'"))[0]![0];
  out["a large write on revision 0 again"] = await s.writeMemory({
    userId: "u",
    chatId: null,
    expected: 0,
    records: bigWrite("late", 12),
  });
  const passed = bigWrite("late", 12).map((r) => ({ ...r, revision: r.revision + 3 }));
  out["a large write on a revision it passed"] = await s.writeMemory({
    userId: "u",
    chatId: null,
    expected: 3,
    records: passed,
  });
  out["rows after"] = (await rows("SELECT count(*), max(revision) FROM bigmem_memory"))[0];
  // Five large writes on one revision at once, each its own store (as five Workers): one lands, whole.
  const racers = Array.from({ length: 5 }, (_, i) =>
    bigWrite(`racer ${i}`, 8).map((r) => ({ ...r, revision: r.revision + 12 })),
  );
  const answers = await Promise.all(
    racers.map((records) =>
      (store("bigmem_") as Required<Store>).writeMemory({ userId: "u", chatId: null, expected: 12, records }),
    ),
  );
  out["5 large writes on revision 12 at once"] = answers.map((a) => (a.ok ? "ok" : `moved to ${a.revision}`)).sort();
  const winner = racers[answers.findIndex((a) => a.ok)]!;
  out["the winner's records, and only them"] = sameRecords(await s.loadMemoryHistory("u", null, { after: 12 }), winner);
  // A chat deleted while its memory is written (small and large writes, issued before and after the
  // delete): each write lands or finds no chat, and the chat's memory leaves no row.
  const outcomes: string[] = [];
  for (let i = 0; i < 12; i++) {
    const id = `d${i}`;
    await s.createChat(chat(id));
    const records = i % 3 === 0 ? bigWrite("gone", 6, id) : [small(1, "a.md", id)];
    const write = () => code(() => store("bigmem_").writeMemory!({ userId: "u", chatId: id, expected: 0, records }));
    const remove = () => store("bigmem_").deleteChat("u", id);
    const [a, b] =
      i % 2 === 0 ? await Promise.all([write(), remove()]) : (await Promise.all([remove(), write()])).reverse();
    outcomes.push(`${a as string}, deleted ${String(b)}`);
  }
  out["writes racing the chat's deletion"] = [...new Set(outcomes)].filter(
    (o) => !/^(ok|UNKNOWN_CHAT), deleted true$/.test(o),
  );
  out["a deleted chat's memory rows"] = (await rows("SELECT count(*) FROM bigmem_memory WHERE scope <> ''"))[0]![0];
  // The time of a small write (figures only).
  const t = store("timing_") as Required<Store>;
  await t.writeMemory({ userId: "u", chatId: null, expected: 0, records: [small(1, "warm.md")] });
  const start = Date.now();
  for (let r = 2; r <= 41; r++)
    await t.writeMemory({ userId: "u", chatId: null, expected: r - 1, records: [small(r, "notes.md")] });
  out.timing = { writes: 40, ms: Date.now() - start };
  return out;
}

/** What memoryRaces answers (but its timing). */
export const expectedMemoryRaces = (): Record<string, unknown> => ({
  "a large write": { ok: true },
  "read back exactly": true,
  "no mark left": 0,
  "a large write on revision 0 again": { ok: false, revision: 12 },
  "a large write on a revision it passed": { ok: false, revision: 12 },
  "rows after": [12, 12],
  "5 large writes on revision 12 at once": ["moved to 20", "moved to 20", "moved to 20", "moved to 20", "ok"],
  "the winner's records, and only them": true,
  "writes racing the chat's deletion": [],
  "a deleted chat's memory rows": 0,
});
