// Issue 30, item 2, through Looms: a chat id the user has, as create({ id }) and import meet it,
// on one store shared by several Looms (servers). Run on the memory, SQLite and PostgreSQL
// stores by test/store/chat-exists.test.ts and on a Durable Object's in workerd
// (test/runtime/do-store-ops.ts). No test framework here: the worker bundles this file.
import type { Loom, Store } from "../../src/index.js";

/** Opens a Loom on `store`, with the runtime's own entry (Node's or workerd's). */
export type OpenLoom = (store: Store) => Promise<Loom>;

const outcome = async (call: () => Promise<unknown>): Promise<string> => {
  try {
    await call();
    return "created";
  } catch (error) {
    return String((error as { code?: unknown }).code ?? `not coded: ${String(error)}`);
  }
};
const tally = (outcomes: string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const o of outcomes) out[o] = (out[o] ?? 0) + 1;
  return out;
};

/**
 * What each step answers: ten create({ id }) at once in one Loom, then in ten Looms (each on its
 * own store made by `store()`, all on one database), then imports of an export whose id the user
 * has, from a Loom that has it open and from one that has not.
 */
export async function existsThroughLooms(open: OpenLoom, store: () => Store): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const one = await open(store());
  const chats = one.user("ann");
  out["one Loom: 10 creates of one id at once"] = tally(
    await Promise.all(Array.from({ length: 10 }, () => outcome(() => chats.create({ id: "same" })))),
  );
  const others = await Promise.all(Array.from({ length: 10 }, () => open(store())));
  const ten = await Promise.all(others.map((loom) => outcome(() => loom.user("ann").create({ id: "shared" }))));
  out["ten Looms: 10 creates of one id at once"] = tally(ten);
  out["the user's chats"] = (await chats.list()).map((c) => c.id).sort();

  // An export whose id the user has: a new id, wherever the chat is open or not.
  const kept = await chats.create({ id: "kept", title: "original" });
  await kept.append({ role: "user", content: "the original's text" });
  const data = kept.export();
  const elsewhere = others[0]!.user("ann"); // a Loom (a second server) that has not opened "kept"
  const copy = await elsewhere.import(data);
  out["import in a Loom without it open: a new id"] = copy.id !== "kept";
  const here = await chats.import(data);
  out["import in the Loom holding it open: a new id"] = here.id !== "kept" && here.id !== copy.id;
  out["import for another user: the export's id"] = (await others[1]!.user("bob").import(data)).id;
  const fresh = await open(store());
  const original = await fresh.user("ann").open("kept");
  out["the original, intact"] = [original.title, original.path().map((m) => m.content)];
  out["chats of its title"] = (await chats.list()).filter((c) => c.title === "original").length;
  await chats.delete("kept");
  await one.flush(); // (a batched SQLite store's other connections see the delete once it is committed)
  out["import after the chat is deleted: the export's id"] = (await others[2]!.user("ann").import(data)).id;
  for (const loom of [one, fresh, ...others]) await loom.close();
  return out;
}

/** What existsThroughLooms must answer on every store. */
export const expectedThroughLooms = (): Record<string, unknown> => ({
  "one Loom: 10 creates of one id at once": { created: 1, CHAT_EXISTS: 9 },
  "ten Looms: 10 creates of one id at once": { created: 1, CHAT_EXISTS: 9 },
  "the user's chats": ["same", "shared"],
  "import in a Loom without it open: a new id": true,
  "import in the Loom holding it open: a new id": true,
  "import for another user: the export's id": "kept",
  "the original, intact": ["original", ["the original's text"]],
  "chats of its title": 3,
  "import after the chat is deleted: the export's id": "kept",
});
