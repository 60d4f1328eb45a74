// Every kind of append gives up the same way when other writers keep taking the next id: a
// message (append, edit, a cancelled tool call's result) and a summary all stop at the 100th
// conflict with STORE_FAILED, write nothing, and leave the chat as it was. On both engines,
// with a store that answers at once and one that answers later.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat, type Store } from "../../src/index.js";
import { MAX_CONFLICTS } from "../../src/chat/conditional-append.js";
import { forEachEngine, snapshot, withoutFastPaths } from "../helpers.js";
import { SMALL, talk } from "./summaries-helpers.js";

/**
 * A memory store that, once `conflicting` is set, answers every append with a conflict (as if
 * another writer always got the next id first), counting them. `later`: its answers are
 * promises, and it keeps no columns in this process (so the Loom keys its appends).
 */
function conflictingStore(later: boolean) {
  const inner = memoryStore();
  const state = { conflicting: false, conflicts: 0 };
  const store: Store = {
    ...inner,
    ...(later ? withoutFastPaths : {}),
    appendMessage: ({ userId, chatId, message, head, updatedAt, key }) => {
      if (!state.conflicting) return inner.appendMessage({ userId, chatId, message, head, updatedAt, key });
      state.conflicts++;
      const answer = { ok: false as const, size: message.id + 1 };
      return later ? Promise.resolve(answer) : answer;
    },
  };
  return { store, state };
}

const KINDS: Record<string, (chat: Chat) => Promise<unknown>> = {
  append: (chat) => chat.append({ role: "user", content: "One more question." }),
  edit: (chat) => chat.edit(0, "The first question, rewritten."),
  "cancelToolCalls (a tool result)": (chat) => chat.cancelToolCalls(),
  "a summary (buildContext)": (chat) => chat.buildContext(),
};

forEachEngine((engine) => {
  for (const later of [false, true]) {
    describe(`appends that always conflict (a store answering ${later ? "later" : "at once"})`, () => {
      for (const [kind, run] of Object.entries(KINDS)) {
        it(`${kind}: STORE_FAILED at the ${MAX_CONFLICTS}th conflict, nothing written`, async () => {
          const { store, state } = conflictingStore(later);
          const loom = await Loom.open({ engine, store, summaries: true });
          const chat = await loom.user("u").create({ model: SMALL });
          await talk(chat, 60);
          if (kind.startsWith("cancel")) {
            await chat.append({
              role: "assistant",
              content: "",
              toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
            });
          }
          const before = await snapshot(chat);
          state.conflicting = true;
          const error = await run(chat).then(
            () => null,
            (e: unknown) => e,
          );
          expect(error).toMatchObject({ code: "STORE_FAILED" });
          expect((error as Error).message).toMatch(
            /lost the race for the next id to other writers 100 times in a row; nothing was written\. Retry later/,
          );
          expect(state.conflicts).toBe(MAX_CONFLICTS);
          expect(await snapshot(chat)).toEqual(before);
          await loom.close();
        });
      }
    });
  }
});
