// Property (issue 21, item 6): every text a chat holds comes back from every store exactly, code
// unit for code unit: after a reopen in a new Loom, and after an export imported into another
// user's chats and reopened. The texts are made of the characters stores and codecs get wrong:
// a byte order mark (leading or not), NUL and other controls, U+2028/U+2029, CR, CRLF, astral
// characters, combining marks, quotes, backslashes, SQL and JSON punctuation.
// The Durable Object store runs the same texts in workerd (test/runtime/durable-object.test.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat, type ChatExport, type Store } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { ENGINES } from "../helpers.js";
import { clusterForFile } from "./pg-file.js";
import { tempFolder } from "./sqlite-helpers.js";
import { buildTextsChat, expectedTexts, textsOf } from "./texts-spec.js";
import { textsSpec, trickyText } from "./tricky-texts.js";

const file = tempFolder("texts");
const postgres = clusterForFile();

const messagesOf = (chat: Chat) => Array.from({ length: chat.messageCount }, (_, i) => chat.get(i));

/** Every text of a chat as the Loom reads it: record, list entry, messages, export. */
async function observe(loom: Loom, userId: string, chatId: string): Promise<unknown> {
  const chat = await loom.user(userId).open(chatId);
  const exported = chat.export() as ChatExport;
  return {
    title: chat.title,
    system: chat.system,
    list: await loom.user(userId).list(),
    messages: messagesOf(chat),
    exported,
  };
}

const STORES: [string, boolean, (run: number) => () => Store][] = [
  [
    "memory",
    false,
    () => {
      const store = memoryStore();
      return () => store;
    },
  ],
  [
    "sqlite",
    false,
    (run) => {
      const path = file(`texts-${run}.db`);
      return () => sqliteStore(path);
    },
  ],
  [
    "postgres",
    postgres.skip,
    (run) => {
      const prefix = `texts${run}_`;
      return () => postgresStore(postgres.url(), { tablePrefix: prefix });
    },
  ],
];

describe("texts round-trip exactly on every store", () => {
  let run = 0;
  for (const [name, skip, storeFor] of STORES) {
    it.skipIf(skip)(
      `${name}: a reopen, and an export imported and reopened, give back every text`,
      async () => {
        await fc.assert(
          fc.asyncProperty(textsSpec, trickyText, async (spec, userId) => {
            const engine = ENGINES[run % 2]!;
            const store = storeFor(++run);
            const loom = await Loom.open({ engine, store: store(), counter: "heuristic" });
            const chat = await buildTextsChat(loom.user(userId), spec);
            const before = await observe(loom, userId, chat.id);
            // What the Loom holds is what it was given (so that "the same after" means "the same as given").
            expect(textsOf(chat)).toEqual(expectedTexts(spec));
            await loom.close();

            const again = await Loom.open({ engine, store: store(), counter: "heuristic" });
            expect(await observe(again, userId, chat.id)).toEqual(before);
            const copy = await again.user(`${userId}\u2028copy`).import((before as { exported: ChatExport }).exported);
            await again.close();

            const third = await Loom.open({ engine: ENGINES[run % 2]!, store: store(), counter: "heuristic" });
            const imported = (await observe(third, `${userId}\u2028copy`, copy.id)) as typeof before & {
              exported: ChatExport;
            };
            const original = (before as { exported: ChatExport }).exported;
            expect(imported.exported).toEqual({
              ...original,
              chat: { ...original.chat, id: copy.id, updatedAt: imported.exported.chat.updatedAt },
            });
            await third.close();
          }),
          { numRuns: Number(process.env.TEXTS_RUNS ?? 20) },
        );
      },
      120_000,
    );
  }
});
