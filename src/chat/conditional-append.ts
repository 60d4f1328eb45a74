// The store's conditional append, written once for every kind of append (a message, a summary).
import { CtxloomError } from "../errors.js";
import type { CheckedInput, Message } from "../message.js";
import { copyParts } from "../parts.js";
import type { Store } from "../store/types.js";
import type { ChatNodes } from "./nodes.js";
import { storeAppend } from "./append-key.js";

/** What an append needs of its chat's state. */
export interface AppendTarget {
  readonly record: { readonly userId: string; readonly id: string };
  nodes(): ChatNodes;
  /** Links the messages the store holds that the chat has not seen. */
  catchUp(): Promise<unknown>;
}

/**
 * One attempt writes `a.make`'s message with the next id; a conflict (another writer got the id
 * first) catches up and tries again under the same key; a key the store holds already answers
 * with its message. At the MAX_CONFLICTS-th conflict it gives up with STORE_FAILED, whatever
 * the kind. Synchronous while the store answers at once.
 */
export function appendConditionally(
  store: Store,
  chat: AppendTarget,
  a: ConditionalAppend,
  conflicts = 0,
): Message | null | Promise<Message | null> {
  const { userId, id: chatId } = chat.record;
  const nodes = chat.nodes();
  const id = nodes.size;
  const message = a.make(nodes, id);
  if (!message) return null;
  // Room first, so that linking cannot fail once the store has the message.
  nodes.reserveNext();
  const settle = (answer: boolean | Message): Message | null | Promise<Message | null> => {
    if (answer === true) return a.landed(nodes, message);
    if (answer !== false) return a.stored(answer);
    if (conflicts + 1 >= MAX_CONFLICTS) throw lostRace(chatId, a.kind);
    // Another writer got there first: learn its messages, retry with the next id.
    return chat.catchUp().then(() => appendConditionally(store, chat, a, conflicts + 1));
  };
  const answer = storeAppend({
    store,
    userId,
    chatId,
    message,
    head: a.head(id),
    updatedAt: message.createdAt,
    key: a.key,
    kind: a.kind,
  });
  return answer instanceof Promise ? answer.then(settle) : settle(answer);
}

/** Conflicts an append meets (another writer took the next id first) before it gives up. */
export const MAX_CONFLICTS = 100;

/** One kind of conditional append (a message, a summary): what it writes and what its outcomes give. */
export interface ConditionalAppend {
  kind: "message" | "summary";
  /** Kept across the attempts: an attempt that landed unseen answers the next one with its message. */
  key: string | undefined;
  /** The message to write with id `id`; null when it no longer applies (nothing is written). */
  make(nodes: ChatNodes, id: number): Message | null;
  /** The head stored with the message. */
  head(id: number): number;
  /** Links the message the store took; returns it as the chat holds it. */
  landed(nodes: ChatNodes, message: Message): Message;
  /** The answer when the store holds a message under the key already. */
  stored(message: Message): Message | Promise<Message>;
}

/** A checked input as the message to store with id `id` under `parent` (-1: a root). */
export function newMessage(id: number, parent: number, m: CheckedInput, tokens: number): Message {
  const message: Message = {
    id,
    parentId: parent < 0 ? null : parent,
    role: m.role,
    content: m.content,
    priority: m.priority,
    tokens,
    createdAt: Date.now(),
    kind: "message",
  };
  if (m.name !== undefined) message.name = m.name;
  if (m.toolCalls) message.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
  if (m.toolCallId !== undefined) message.toolCallId = m.toolCallId;
  if (m.parts) message.parts = copyParts(m.parts);
  return message;
}

const lostRace = (chatId: string, kind: "message" | "summary") =>
  new CtxloomError(
    "STORE_FAILED",
    `${kind === "summary" ? "Storing a summary in" : "Appending to"} chat ${chatId} lost the race for the next id ` +
      `to other writers ` +
      `${MAX_CONFLICTS} times in a row; nothing was written. Retry later, or let one Loom (or one request at a ` +
      `time) write to this chat.`,
  );
