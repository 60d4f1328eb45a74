// A useChat request that goes on with an answer the chat holds, rather than answering a new user
// message: the results of client-side tools (`addToolOutput`, sent back with the answer they
// complete), or an answer the client cut back to its first steps (a later step regenerated).
import { CANCELLED_RESULT } from "../context/tool-units.js";
import { CtxloomError, describe } from "../errors.js";
import type { Message, MessageInput, ToolCall } from "../message.js";
import type { Chat } from "../chat/chat.js";
import type { FromOptions } from "./common.js";
import { fromUIMessages, type ChatUIMessage } from "./ui-messages.js";

/**
 * A message a turn adds: a user message (appended under its append key, or put beside the one it edits), or a tool
 * result.
 */
export interface TurnStep {
  input: MessageInput;
  key?: string;
  edit: boolean;
}

/**
 * A turn that goes on with answer `answerId` (whose UIMessage the client sent with `parts` parts), from the plan's
 * parent.
 */
export interface Continuation {
  answerId: number;
  parts: number;
}

/**
 * The tool calls still without a result in the unit that ends at `id` (an assistant message with
 * tool calls, or one of its results): what must be answered before a user message goes under it.
 */
export function openCallsAt(chat: Chat, id: number): ToolCall[] {
  if (id < 0) return [];
  const answered = new Set<string>();
  let m: Message = chat.get(id);
  while (m.role === "tool" && m.parentId !== null) {
    answered.add(m.toolCallId!);
    m = chat.get(m.parentId);
  }
  if (m.role !== "assistant" || !m.toolCalls) return [];
  return m.toolCalls.filter((c) => !answered.has(c.id));
}

/** Results "cancelled" for the calls left open at `id` (a client-side tool the user moved on from). */
export const cancelSteps = (chat: Chat, id: number): TurnStep[] =>
  openCallsAt(chat, id).map((c) => ({
    input: { role: "tool", toolCallId: c.id, content: CANCELLED_RESULT },
    edit: false,
  }));

/**
 * Plans a request whose last message is the answer `answerId` the chat holds: its steps are
 * walked in the chat (an assistant message by its tool calls' ids, or its text; a tool result by
 * its call's id); a result the chat lacks for a call it holds open is a client-side tool's, added;
 * the new answer goes on from where the client's message ends, beside any later step the chat
 * holds (a later step regenerated).
 * @throws INVALID_ARGUMENT when the message holds a step the chat does not, leaves a call
 *   without a result, or ends where nothing is left to answer
 */
export function planContinuation(
  chat: Chat,
  answerId: number,
  ui: ChatUIMessage,
  i: number,
  from: Required<FromOptions>,
): { parent: number; steps: TurnStep[]; continues: Continuation } {
  const where = `body.messages[${i}] (answer ${describe(ui.id)})`;
  const inputs = fromUIMessages(ui, from);
  const first = chat.get(answerId);
  if (!sameStep(first, inputs[0]!)) throw notHeld(where, 0);
  let at = answerId;
  const steps: TurnStep[] = [];
  // Once a result is planned, the rest goes under it: only more results of the calls open at `at`.
  const open = () =>
    openCallsAt(chat, at)
      .map((c) => c.id)
      .filter((id) => !steps.some((s) => s.input.toolCallId === id));
  for (let j = 1; j < inputs.length; j++) {
    const input = inputs[j]!;
    const held = steps.length > 0 ? undefined : chat.children(at).find((c) => sameStep(chat.get(c), input));
    if (held !== undefined) {
      at = held;
      continue;
    }
    if (input.role !== "tool" || !open().includes(input.toolCallId!)) throw notHeld(where, j);
    steps.push({ input, edit: false }); // a client-side tool's result
  }
  const left = open();
  if (left.length > 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where} leaves tool call ${describe(left[0])} without a result: send the request once every call has its ` +
        `output ` +
        `(addToolOutput, with sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls), or send a new ` +
        `user message.`,
    );
  }
  if (steps.length === 0 && chat.get(at).role !== "tool") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where} ends with a step the chat holds whole: there is nothing to go on from. To regenerate a later step, ` +
        `send the answer cut back to the ` +
        "steps before it (ending with tool results); to regenerate the whole answer, use regenerate().",
    );
  }
  return { parent: at, steps, continues: { answerId, parts: ui.parts.length } };
}

/** Whether a chat message is the step a converted UI step stands for. */
function sameStep(m: Message, input: MessageInput): boolean {
  if (m.kind !== "message" || m.role !== input.role) return false;
  if (m.role === "tool") return m.toolCallId === input.toolCallId;
  const ids = (calls: ToolCall[] | undefined) => (calls ?? []).map((c) => c.id).join("\n");
  if ((m.toolCalls?.length ?? 0) > 0 || (input.toolCalls?.length ?? 0) > 0)
    return ids(m.toolCalls) === ids(input.toolCalls);
  return m.content === (typeof input.content === "string" ? input.content : m.content);
}

function notHeld(where: string, step: number): CtxloomError {
  return new CtxloomError(
    "INVALID_ARGUMENT",
    `${where} holds a step the chat does not (its message ${step}): chatTurn goes on with an answer as the chat ` +
      `holds it, adding only the ` +
      "results of client-side tools; load the chat's messages with toUIMessages(chat), so that the client shows " +
      "what the chat holds.",
  );
}
