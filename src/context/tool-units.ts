// The tool-unit rules, in one place for the chat tree and the sliding window: an assistant
// message with tool calls and the results that answer them are one unit, kept or dropped whole.
import { CtxloomError, describe } from "../errors.js";
import type { Priority, ToolCall } from "../message.js";

/** An assistant message's tool calls and the results given so far. */
export interface ToolUnit {
  readonly calls: readonly ToolCall[];
  /** Ids of the calls already answered. */
  readonly answered: ReadonlySet<string>;
  /** The assistant message's priority, which its results share. */
  readonly priority: Priority;
}

/** The content of the tool results that `chat.cancelToolCalls()` adds. */
export const CANCELLED_RESULT = "cancelled";

/** The calls of `unit` still waiting for a result, in call order. */
export function openCalls(unit: ToolUnit | null): ToolCall[] {
  return unit ? unit.calls.filter((c) => !unit.answered.has(c.id)) : [];
}

/** True while `unit` has a call without its result. */
export function unfinished(unit: ToolUnit | null): boolean {
  return unit !== null && unit.answered.size < unit.calls.length;
}

/**
 * Checks that a tool result answers an open call of `unit` (the unit just above it), with
 * the call's priority (`given` is the priority the caller passed, if any). Returns the
 * result's priority and whether it answers the unit's last open call.
 * @throws INVALID_TOOL_CALL (no such open call, or answered already), INVALID_PRIORITY
 */
export function checkToolResult(
  unit: ToolUnit | null,
  toolCallId: string,
  given?: Priority,
): { priority: Priority; completes: boolean } {
  if (!unit?.calls.some((c) => c.id === toolCallId)) {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `No tool call ${describe(toolCallId)} awaits an answer here: a tool result must follow the assistant ` +
        `message whose toolCalls include its toolCallId, or another result of that message.`,
    );
  }
  if (unit.answered.has(toolCallId)) {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `Tool call ${describe(toolCallId)} is already answered; answer each call once.`,
    );
  }
  if (given !== undefined && given !== unit.priority) {
    throw new CtxloomError(
      "INVALID_PRIORITY",
      `A tool result takes the priority of the assistant message that made the call (${unit.priority}); ` +
        `leave priority out or pass "${unit.priority}".`,
    );
  }
  return { priority: unit.priority, completes: unit.answered.size + 1 === unit.calls.length };
}

/**
 * Refuses a message that is not a tool result while `unit` has open calls: the calls would
 * stay unanswered for good, and providers reject such a conversation.
 * @throws OPEN_TOOL_CALLS naming the open calls and how to close them
 */
export function checkNoOpenCalls(unit: ToolUnit | null, role: string): void {
  if (!unfinished(unit)) return; // (every append asks: no array made for the usual answer)
  const open = openCalls(unit);
  if (open.length === 0) return;
  const names = open.map((c) => `${c.id} (${c.function.name})`).join(", ");
  throw new CtxloomError(
    "OPEN_TOOL_CALLS",
    `A ${role} message cannot follow tool calls that have no result yet: ${names}. ` +
      `Append a tool result ({ role: "tool", toolCallId, content }) for each, or call chat.cancelToolCalls() ` +
      `to answer them all with "${CANCELLED_RESULT}".`,
  );
}
