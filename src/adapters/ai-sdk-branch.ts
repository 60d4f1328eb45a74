// A UI switching to another version of a message ("2 / 3" -> "3 / 3"): the chat's head goes to
// the newest message below it, and the UI gets the branch to show.
import { CtxloomError, describe } from "../errors.js";
import type { Chat } from "../chat/chat.js";
import { toUIMessages, type ChatUIMessage } from "./ui-messages.js";

/**
 * Switches the chat to the branch through message `messageId` (one of `metadata.branch.ids`):
 * checks out the newest message below it (the tip of the conversation that went on from it,
 * its latest step for an answer) and returns that branch as UIMessages, for `setMessages`.
 * The next request of the client goes on from there.
 * @throws INVALID_ARGUMENT (not a chat), UNKNOWN_MESSAGE, WRONG_ROLE (a summary)
 */
export async function switchBranch(chat: Chat, messageId: number): Promise<ChatUIMessage[]> {
  if (chat === null || typeof chat !== "object" || typeof (chat as Partial<Chat>).checkout !== "function") {
    throw new CtxloomError("INVALID_ARGUMENT", `switchBranch takes a chat (from chats.open()); got ${describe(chat)}.`);
  }
  chat.get(messageId); // UNKNOWN_MESSAGE before anything moves
  await chat.checkout(newestBelow(chat, messageId));
  return toUIMessages(chat);
}

/** The newest message (the highest id) of the subtree of `id`, summaries aside. O(subtree). */
function newestBelow(chat: Chat, id: number): number {
  let newest = id;
  const stack = [id];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x > newest) newest = x;
    stack.push(...chat.children(x));
  }
  return newest;
}
