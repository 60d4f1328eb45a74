// Where a useChat request's answer goes in the chat's tree: the client's messages matched to the
// chat's (by the ids ctxloom gave them), the user's new message appended after what the client
// shows (once: under its UIMessage id as append key), an edit beside the message it edits, an
// answer the client sends back (client-side tool results, a later step regenerated) gone on with.
import { CtxloomError, describe } from "../errors.js";
import type { Message, MessageInput } from "../message.js";
import type { Chat } from "../chat/chat.js";
import type { TurnRequest } from "./ai-sdk-body.js";
import { cancelSteps, planContinuation, type Continuation, type TurnStep } from "./ai-sdk-continue.js";
import type { FromOptions } from "./common.js";
import { fromUIMessages, type ChatUIMessage, type ChatUIMetadata } from "./ui-messages.js";

const CHAT_ID = /^(0|[1-9][0-9]{0,9})$/;

/** Where a request's turn goes: the messages to add (none: the turn answers `parent`), each under the one before. */
export interface TurnPlan {
  /** The message the first step goes under (-1: a root), or the message to answer when there are no steps. */
  parent: number;
  /**
   * The messages to add, in order: user messages (appended under their append key, or put beside the one edited), tool
   * results.
   */
  steps: TurnStep[];
  /** Set when the turn goes on with an answer the client sent back: the stream continues that UIMessage. */
  continues?: Continuation;
}

/**
 * Plans the request's turn in the chat (null: a chat the request is to create), writing
 * nothing: every user message it adds converted and checked, so that a bad request changes
 * nothing. The last message of the client's list the chat holds is the anchor (an answer: the
 * end of its turn, its last step); the user messages after it are added under it, in order
 * (none held: a list starts a new root; the last message alone goes under the message the body
 * names, else under the head's turn). Calls left open there (a client-side tool the user moved
 * on from) are answered "cancelled" first. With `submit-message` and a `messageId` naming the
 * last message (useChat's edit), that message's new text goes beside the one it replaces,
 * unless the text is the same. An answer the chat holds, last, is gone on with (planContinuation).
 * @throws INVALID_ARGUMENT when nothing is left to answer, or an answer the chat does not hold
 *   follows the anchor; the codes of fromUIMessages for a message it cannot convert
 */
export function planTurn(chat: Chat | null, r: TurnRequest, from: Required<FromOptions>): TurnPlan {
  const messages = r.messages;
  const lastIndex = messages.length - 1;
  if (lastIndex < 0)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "The request's body.messages is empty: there is no user message to answer.",
    );
  const last = messages[lastIndex]!;
  const editing =
    r.trigger === "submit-message" && r.messageId !== undefined && r.messageId === last.id && last.role === "user";
  // The anchor: the last of the client's messages the chat holds (k: its index; -1: none).
  let k = -1;
  let anchor = -1;
  for (let i = lastIndex; chat !== null && i >= 0; i--) {
    const id = held(chat, messages[i]!);
    if (id !== undefined) {
      [k, anchor] = [i, id];
      break;
    }
  }
  if (chat !== null && k === lastIndex && last.role === "assistant" && r.trigger === "submit-message") {
    return planContinuation(chat, anchor, last, lastIndex, from);
  }
  if (chat !== null && editing && k === lastIndex) {
    // An edit of a message the chat holds: beside it, unless its text is unchanged.
    const original = chat.get(anchor);
    const input = userInput(messages[k]!, k, from);
    if (sameContent(original, input)) return { parent: anchor, steps: [] };
    return { parent: original.parentId ?? -1, steps: [{ input, edit: true }] };
  }
  if (chat === null && r.parentId !== undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `body.parentId ${describe(r.parentId)} names a message of a chat the user does not have yet: send null for a ` +
        `new chat's first message.`,
    );
  }
  const parent = chat === null ? -1 : k >= 0 ? turnEnd(chat, anchor) : r.single ? namedParent(chat, r, editing) : -1;
  const plan: TurnPlan = { parent, steps: [] };
  for (let i = k + 1; i <= lastIndex; i++) {
    const ui = messages[i]!;
    if (ui.role !== "user") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `body.messages[${i}] is ${ui.role === "assistant" ? "an answer" : "a system message"} (${describe(ui.id)}) ` +
          `the chat does not hold, after the messages it does: ` +
          `chatTurn appends the user's messages only (load the chat's messages with toUIMessages(chat), so that the ` +
          `client shows what the chat holds).`,
      );
    }
    const input = userInput(ui, i, from);
    const key = ui.id.length > 0 && ui.id.length <= 190 ? `ui:${ui.id}` : undefined;
    if (editing && i === lastIndex) plan.steps.push({ input, edit: true });
    else plan.steps.push(key === undefined ? { input, edit: false } : { input, key, edit: false });
  }
  if (plan.steps.length === 0 && (chat === null || plan.parent < 0 || chat.get(plan.parent).role !== "user")) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The request ends with ${describe(last.role)} message ${describe(last.id)}, not a user message: there is ` +
        `nothing to answer.`,
    );
  }
  // Client-side tool calls the user moved on from (a new message instead of their outputs): answered "cancelled" first.
  if (chat !== null && plan.steps.length > 0 && !editing) plan.steps.unshift(...cancelSteps(chat, plan.parent));
  return plan;
}

/**
 * Where the last message alone goes when the chat does not hold it: under the message the body
 * names (`parentId`, the end of its turn), else under the end of the head's turn (null: a root).
 */
function namedParent(chat: Chat, r: TurnRequest, editing: boolean): number {
  if (r.parentId === undefined) {
    if (editing) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `body.message ${describe(r.messages[0]!.id)} is an edit of a message the chat knows by the client's id only: ` +
          "name the message before it in body.parentId (messages.at(-2)?.id in prepareSendMessagesRequest).",
      );
    }
    return chat.head === null ? -1 : turnEnd(chat, chat.head);
  }
  const n = CHAT_ID.test(r.parentId) ? Number(r.parentId) : -1;
  if (n < 0 || n >= chat.messageCount || chat.get(n).kind !== "message") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `body.parentId ${describe(r.parentId)} names no message of the chat: give the UIMessage id of the message the ` +
        `client shows before ` +
        "body.message, as the chat gave it (toUIMessages, the stream's message id), or leave parentId out to go on " +
        "from the chat's head.",
    );
  }
  return turnEnd(chat, n);
}

/**
 * Adds the plan's user messages to the chat; returns the id of the user message to answer (the
 * head is not moved: appends name their parent).
 */
export async function applyTurn(chat: Chat, plan: TurnPlan): Promise<number> {
  let parent = plan.parent;
  for (const step of plan.steps) {
    if (step.edit) parent = await edit(chat, parent, step.input);
    else if (step.input.role === "tool") parent = (await chat.append(step.input, { parent })).id;
    else {
      const under = parent < 0 ? null : parent;
      parent = (
        await chat.append(step.input, step.key === undefined ? { parent: under } : { parent: under, key: step.key })
      ).id;
    }
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
  const parent =
    Number.isInteger(meta.parentId) && meta.parentId! >= 0 && meta.parentId! < size ? meta.parentId! : undefined;
  const fits = (id: number): boolean => {
    const m = chat.get(id);
    return (
      m.kind === "message" &&
      m.role === ui.role &&
      (ui.role !== "assistant" || parent === undefined || m.parentId === parent)
    );
  };
  if (n !== undefined && n < size && fits(n)) return n;
  if (ui.role === "assistant" && n !== undefined && parent !== undefined)
    return chat.children(parent).find((c) => c >= n && fits(c));
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

/**
 * An edited user message under `parent`: a sibling already there with the same text is taken (a retried edit), else a
 * new one.
 */
async function edit(chat: Chat, parent: number, input: MessageInput): Promise<number> {
  const siblings = parent < 0 ? chat.roots() : chat.children(parent);
  const same = siblings.find((s) => chat.get(s).role === "user" && sameContent(chat.get(s), input));
  if (same !== undefined) return same;
  return (await chat.append(input, { parent: parent < 0 ? null : parent })).id;
}
