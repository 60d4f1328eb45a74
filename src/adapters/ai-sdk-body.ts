// The body of a useChat request, in either shape a client posts: the chat's whole list of
// UIMessages (DefaultChatTransport's default), or the last message alone (what the AI SDK
// recommends when the server keeps the chat: `prepareSendMessagesRequest`).
import { CtxloomError, describe } from "../errors.js";
import { objectAt } from "./common.js";
import type { ChatUIMessage } from "./ui-messages.js";

/** The body of a useChat request, checked. */
export interface TurnRequest {
  id: string;
  /** The client's messages: the whole list, or (`single`) the last message alone. */
  messages: ChatUIMessage[];
  trigger: "submit-message" | "regenerate-message";
  messageId: string | undefined;
  /** The body held `message` (the last message alone) rather than `messages`. */
  single: boolean;
  /**
   * With the last message alone: the UIMessage id of the message the client shows before it (undefined: none named).
   */
  parentId: string | undefined;
}

const TRIGGERS = ["submit-message", "regenerate-message"];

/**
 * The body as a useChat client posts it, checked: `{ id, messages, trigger, messageId }`, or
 * `{ id, message, trigger?, messageId?, parentId? }` (trigger defaults to "submit-message").
 * @throws INVALID_ARGUMENT
 */
export function readBody(body: unknown): TurnRequest {
  const b = objectAt(body, "chatTurn(chats, body)");
  if (typeof b.id !== "string") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The request's body.id must be the chat's id (a string, as useChat sends it); got ${describe(b.id)}.`,
    );
  }
  const single = b.message !== undefined;
  if (single && b.messages !== undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "The request's body has both `messages` and `message`: send the chat's messages (useChat's default) or the " +
        "last message alone, not both.",
    );
  }
  if (!single && !Array.isArray(b.messages)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The request's body.messages must be the chat's UIMessages (or body.message the last one alone); got ` +
        `${describe(b.messages)}.`,
    );
  }
  if (!single && b.parentId !== undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "The request's body.parentId goes with body.message (the last message alone): with body.messages, the message " +
        "before the new one is the list's.",
    );
  }
  const trigger = b.trigger ?? (single ? "submit-message" : undefined);
  if (typeof trigger !== "string" || !TRIGGERS.includes(trigger)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The request's body.trigger must be "submit-message" or "regenerate-message" (a resumed stream is a GET of ` +
        `its own); got ${describe(b.trigger)}.`,
    );
  }
  if (b.messageId !== undefined && b.messageId !== null && typeof b.messageId !== "string") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The request's body.messageId must be a UIMessage id; got ${describe(b.messageId)}.`,
    );
  }
  if (b.parentId !== undefined && b.parentId !== null && typeof b.parentId !== "string") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The request's body.parentId must be the UIMessage id of the message the client shows before body.message (or ` +
        `null); got ${describe(b.parentId)}.`,
    );
  }
  const messages = (single ? [b.message] : b.messages) as unknown[];
  messages.forEach((m, i) => {
    const where = single ? "body.message" : `body.messages[${i}]`;
    const u = objectAt(m, where);
    if (
      typeof u.id !== "string" ||
      (u.role !== "user" && u.role !== "assistant" && u.role !== "system") ||
      !Array.isArray(u.parts)
    ) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} must be a UIMessage ({ id, role, parts }); got ${describe(m)}.`,
      );
    }
  });
  return {
    id: b.id,
    messages: messages as ChatUIMessage[],
    trigger: trigger as TurnRequest["trigger"],
    messageId: typeof b.messageId === "string" ? b.messageId : undefined,
    single,
    parentId: typeof b.parentId === "string" ? b.parentId : undefined,
  };
}
