// Issue 30, item 2: a chat id the user has, on every store, whatever Loom meets it. PostgreSQL
// was asked for message id Number.MAX_SAFE_INTEGER by the "does it exist" look-up, which its
// integer column refuses: of 10 racing create({ id }), 1 was made and 9 gave STORE_FAILED (not
// CHAT_EXISTS); of 20 chatTurns starting a chat at once, 1 succeeded; and an export whose id the
// user had could not be imported in a Loom that had not opened that chat. The Durable Object's
// run in workerd (test/runtime/durable-object.test.ts).
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { chatTurn } from "../../src/ai-sdk.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { existsThroughLooms, expectedThroughLooms } from "./exists-cases.js";
import { clusterForFile } from "./pg-file.js";
import { tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("chat-exists");
const postgres = clusterForFile();
let n = 0;

/** [name, skip, a maker of stores on one database each time it is called]: each store() of one maker shares its data. */
const STORES: [string, boolean, () => () => Store][] = [
  [
    "memory",
    false,
    () => {
      const shared = memoryStore();
      return () => shared;
    },
  ],
  [
    "sqlite, full durability",
    false,
    () => {
      const path = file(`full-${++n}.db`);
      return () => sqliteStore(path);
    },
  ],
  [
    "sqlite, batched durability",
    false,
    () => {
      const path = file(`batched-${++n}.db`);
      return () => sqliteStore(path, { durability: "batched" });
    },
  ],
  [
    "postgres",
    postgres.skip,
    () => {
      const prefix = `exists${++n}_`;
      return () => postgresStore(postgres.url(), { tablePrefix: prefix, max: 3 });
    },
  ],
];

const open = (store: Store) => Loom.open({ store, engine: "js", counter: "heuristic" });
const turn = (i: number) => ({
  id: "new-chat",
  trigger: "submit-message",
  messages: [{ id: `ui-${i}`, role: "user", parts: [{ type: "text", text: `hello ${i}` }] }],
});

describe("a chat id the user has: CHAT_EXISTS from every store, a new id for an import, in any Loom", () => {
  for (const [name, skip, stores] of STORES) {
    it.skipIf(skip)(
      `${name}: 10 racing creates make 1; an import whose id is taken gets a new one, open or not`,
      async () => {
        expect(await existsThroughLooms(open, stores())).toEqual(expectedThroughLooms());
      },
      60_000,
    );

    it.skipIf(skip)(
      `${name}: 20 chatTurns starting one chat at once all succeed, in one Loom and in twenty`,
      async () => {
        for (const looms of [1, 20]) {
          const store = stores();
          const opened = await Promise.all(Array.from({ length: looms }, () => open(store())));
          const settled = await Promise.allSettled(
            Array.from({ length: 20 }, (_, i) => chatTurn(opened[i % looms]!.user("ann"), turn(i))),
          );
          const failed = settled.flatMap((s) =>
            s.status === "rejected" ? [String((s.reason as { code?: string }).code ?? s.reason)] : [],
          );
          expect(failed, `${looms} Loom(s)`).toEqual([]);
          for (const loom of opened) await loom.close(); // (a batch open on one connection is not seen from another)
          const check = await open(store());
          const chat = await check.user("ann").open("new-chat");
          expect(chat.messageCount, `${looms} Loom(s)`).toBe(20); // each turn's user message, once
          expect((await check.user("ann").list()).map((c) => c.id)).toEqual(["new-chat"]);
          await check.close();
        }
      },
      60_000,
    );
  }
});
