// Shared by the summary tests of the tree: a small model, a conversation, the summaries of a chat.
import type { Chat, ModelProfile } from "../../src/index.js";

/** Heuristic counting in a window of 2,000: a request may use 1,710 tokens. */
export const SMALL: ModelProfile = { name: "sum-small", contextWindow: 2_000, sizeClass: "tiny", tokensPerChar: 0.25 };

/** `turns` user/assistant pairs numbered from `from`. */
export async function talk(chat: Chat, turns: number, from = 0): Promise<void> {
  for (let i = from; i < from + turns; i++) {
    await chat.append({ role: "user", content: `Question ${i} asks about topic ${i}. It adds a few more words.` });
    await chat.append({ role: "assistant", content: `Answer ${i} settles topic ${i}. Then it explains a little.` });
  }
}

/** Ids of the chat's summaries, oldest first. O(messages). */
export const summaryIds = (chat: Chat): number[] =>
  Array.from({ length: chat.messageCount }, (_, i) => chat.get(i))
    .filter((m) => m.kind === "summary")
    .map((m) => m.id);
