// A LoCoMo conversation as a chat, each turn a message (the first speaker's the user's, the
// other's the assistant's), held two ways:
//   appended         chat.append of each turn's role and text, as the outside measurement made
//                    its chats (no names; every message stamped with the clock's time, so no
//                    pauses between sessions)
//   as it happened   each message with its speaker's name and its session's date and time as
//                    when it was written: appends are stamped with the clock's time, so the chat
//                    is made whole by chats.import (a ChatExport with each message's createdAt)
// Recall then reads either as it reads any chat: lazily, its texts indexed on the first recall.

import { Loom } from "../../src/index.js";
import type { Chat } from "../../src/index.js";
import type { ChatExport } from "../../src/store/portable.js";
import type { Conversation } from "../../test/recall/eval/generate.js";
import type { Channel } from "./channels.js";

/** The conversation as a chat export: each turn a message after the one before, with its speaker's name and its session's time. */
export function conversationExport(c: Conversation): ChatExport {
  const at = (i: number) => Date.parse(c.turns[i]!.at);
  const start = at(0);
  return {
    format: "ctxloom.chat",
    version: 2,
    chat: {
      title: `LoCoMo conversation ${c.id}`,
      model: "gpt-4o",
      system: null,
      createdAt: start,
      updatedAt: at(c.turns.length - 1),
    },
    head: c.turns.length - 1,
    messages: c.turns.map((t) => ({
      id: t.id,
      parentId: t.id === 0 ? null : t.id - 1,
      role: t.speaker === 0 ? "user" : "assistant",
      content: t.text,
      priority: "normal",
      createdAt: at(t.id),
      kind: "message",
      name: c.speakers[t.speaker],
    })),
  };
}

/** How the outside measurement asks: the exchanges of the best matches, or the k best messages. */
export type LocomoCall = "exchanges" | "top k";
/** How the chat holds the conversation (see above). */
export type LocomoHeld = "appended" | "as it happened";

/**
 * ctxloom's recall of a chat holding the conversation, as an app calls it: `exchanges` the
 * first k messages of chat.recall(q, { prompts: k, answersPerPrompt: 0, recent: 0 }), `top k`
 * chat.recall(q, { k }).
 */
export const locomoChat = (engine: "wasm" | "js", call: LocomoCall, held: LocomoHeld): Channel => ({
  name: `ctxloom recall, ${call}, ${held} (${engine})`,
  async open(c) {
    const loom = await Loom.open({ engine, counter: "heuristic" });
    let chat: Chat;
    if (held === "as it happened") chat = await loom.user("eval").import(conversationExport(c));
    else {
      chat = await loom.user("eval").create({ title: `LoCoMo conversation ${c.id}` });
      for (const t of c.turns) await chat.append({ role: t.speaker === 0 ? "user" : "assistant", content: t.text });
    }
    return {
      async rank(question, k) {
        const found =
          call === "top k"
            ? await chat.recall(question, { k })
            : await chat.recall(question, { prompts: k, answersPerPrompt: 0, recent: 0 });
        return found.slice(0, k).map((r) => r.message.id);
      },
      close: () => loom.close(),
    };
  },
});
