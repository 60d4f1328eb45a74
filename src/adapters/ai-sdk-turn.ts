// Where a useChat request's answer goes in the chat's tree: the client's messages matched to the
// chat's (by the ids ctxloom gave them), the user's new message appended after what the client
// shows (once: under its UIMessage id as append key), an edit beside the message it edits.
import { CtxloomError, describe } from "../errors.js";
import type { Message, MessageInput } from "../message.js";
import type { Chat } from "../chat/chat.js";
import type { FromOptions } from "./common.js";
import { fromUIMessages, type ChatUIMessage, type ChatUIMetadata } from "./ui-messages.js";

/** The body of a useChat request, checked. */
export interface TurnRequest {
  id: string;
  messages: ChatUIMessage[];
  trigger: "submit-message" | "regenerate-message";
  messageId: string | undefined;
}

const CHAT_ID = /^(0|[1-9][0-9]{0,9})$/;

/**
 * Places the request's turn in the chat and returns the id of the user message to answer (the
 * head is not moved: appends name their parent). The last message of the client's list the chat
 * holds is the anchor (an answer: the end of its turn, its last step); the user messages after
 * it are appended under it, in order. With `submit-message` and a `messageId` naming the last
 * message (useChat's edit), that message's new text goes beside the one it replaces, unless
 * the text is the same.
 * @throws INVALID_ARGUMENT when nothing is left to answer, or an answer the chat does not hold follows the anchor
 */
export async function placeTurn(chat: Chat, r: TurnRequest, from: Required<FromOptions>): Promise<number> {
  const messages = r.messages;
  const lastIndex = messages.length - 1;
  if (lastIndex < 0) throw new CtxloomError("INVALID_ARGUMENT", "The request's body.messages is empty: there is no user message to answer.");
  const editing = r.trigger === "submit-message" && r.messageId !== undefined && r.messageId === messages[lastIndex]!.id;
  let k = lastIndex;
  let anchor = -1;
  for (; k >= 0; k--) {
    const id = held(chat, messages[k]!);
    if (id !== undefined) {
      anchor = id;
      break;
    }
  }
  if (editing && k === lastIndex) {
    // An edit of a message the chat holds: beside it, unless its text is unchanged.
    const original = chat.get(anchor);
    return sameContent(original, userInput(messages[k]!, k, from)) ? anchor : edit(chat, original.parentId ?? -1, userInput(messages[k]!, k, from));
  }
  let parent = k < 0 ? -1 : turnEnd(chat, anchor);
  for (let i = k + 1; i <= lastIndex; i++) {
    const ui = messages[i]!;
    if (ui.role !== "user") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `body.messages[${i}] is ${ui.role === "assistant" ? "an answer" : "a system message"} (${describe(ui.id)}) the chat does not hold, after the messages it does: ` +
          `chatTurn appends the user's messages only (load the chat's messages with toUIMessages(chat), so that the client shows what the chat holds).`,
      );
    }
    const input = userInput(ui, i, from);
    if (editing && i === lastIndex) parent = await edit(chat, parent, input);
    else {
      const key = ui.id.length > 0 && ui.id.length <= 190 ? `ui:${ui.id}` : undefined;
      parent = (await chat.append(input, key === undefined ? { parent: parent < 0 ? null : parent } : { parent: parent < 0 ? null : parent, key })).id;
    }
  }
  if (parent < 0 || chat.get(parent).role !== "user") {
    throw new CtxloomError("INVALID_ARGUMENT", `The request ends with ${describe(messages[lastIndex]!.role)} message ${describe(messages[lastIndex]!.id)}, not a user message: there is nothing to answer.`);
  }
  return parent;
}

/**
 * The chat message a UIMessage stands for: its id when that is a message of the same role (an
 * answer: of the parent its metadata names); for an answer stored under a later id than the one
 * it streamed with (another writer appended first), the parent's first answer from that id on.
 */
function held(chat: Chat, ui: ChatUIMessage): number | undefined {
  const size = chat.messageCount;
  const n = CHAT_ID.test(ui.id) ? Number(ui.id) : undefined;
  const meta = (ui.metadata ?? {}) as Partial<ChatUIMetadata>;
  const parent = Number.isInteger(meta.parentId) && meta.parentId! >= 0 && meta.parentId! < size ? meta.parentId! : undefined;
  const fits = (id: number): boolean => {
    const m = chat.get(id);
    return m.kind === "message" && m.role === ui.role && (ui.role !== "assistant" || parent === undefined || m.parentId === parent);
  };
  if (n !== undefined && n < size && fits(n)) return n;
  if (ui.role === "assistant" && n !== undefined && parent !== undefined) return chat.children(parent).find((c) => c >= n && fits(c));
  return undefined;
}

/**
 * The last message of the turn `id` begins: an answer goes on through its tool results and next
 * steps (on the head's branch where the turn branches, else its newest); a user message is its own.
 */
function turnEnd(chat: Chat, id: number): number {
  if (chat.get(id).role === "user") return id;
  const onHead = new Set(chat.path().map((m) => m.id));
  let x = id;
  for (;;) {
    const next = chat.children(x).filter((c) => chat.get(c).role !== "user");
    if (next.length === 0) return x;
    x = next.find((c) => onHead.has(c)) ?? next[next.length - 1]!;
  }
}

/** A UIMessage of the user as one input for append. */
function userInput(ui: ChatUIMessage, i: number, from: Required<FromOptions>): MessageInput {
  const inputs = fromUIMessages(ui, from);
  if (inputs.length !== 1 || inputs[0]!.role !== "user") {
    throw new CtxloomError("INVALID_ARGUMENT", `body.messages[${i}] must make one user message; got ${describe(ui)}.`);
  }
  return inputs[0]!;
}

const contentOf = (m: Pick<Message, "content" | "parts"> | MessageInput): string =>
  JSON.stringify("parts" in m && m.parts ? m.parts : m.content);

const sameContent = (m: Message, input: MessageInput): boolean => contentOf(m) === contentOf(input);

/** An edited user message under `parent`: a sibling already there with the same text is taken (a retried edit), else a new one. */
async function edit(chat: Chat, parent: number, input: MessageInput): Promise<number> {
  const siblings = parent < 0 ? chat.roots() : chat.children(parent);
  const same = siblings.find((s) => chat.get(s).role === "user" && sameContent(chat.get(s), input));
  if (same !== undefined) return same;
  return (await chat.append(input, { parent: parent < 0 ? null : parent })).id;
}
