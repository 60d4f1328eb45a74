import { CtxloomError, describe } from "../errors.js";
import type { Message } from "../message.js";

/**
 * How a summary is sent: "system" (default), one system message "Summary of the earlier
 * conversation:\n<text>"; "tool", an assistant message calling `summarize_history` and the
 * tool result carrying the text (call id `summary_<id>`). Anthropic contexts always carry
 * summaries in their system text (a request starts with the user's turn).
 */
export type SummaryPresentation = "system" | "tool";

/** The line before a summary sent as a system message. */
export const SUMMARY_PREFIX = "Summary of the earlier conversation:\n";
/** The tool a summary sent as a tool result answers. */
export const SUMMARY_TOOL = "summarize_history";

/** The messages that present summary `id` with `text`: what is sent and what its tokens count. */
export function presentSummary(
  id: number,
  text: string,
  presentation: SummaryPresentation = "system",
): Pick<Message, "role" | "content" | "toolCalls" | "toolCallId">[] {
  if (presentation === "system") return [{ role: "system", content: SUMMARY_PREFIX + text }];
  const callId = `summary_${id}`;
  return [
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: callId, type: "function", function: { name: SUMMARY_TOOL, arguments: "{}" } }],
    },
    { role: "tool", content: text, toolCallId: callId },
  ];
}

/** @throws INVALID_ARGUMENT unless "system" or "tool" */
export function checkPresentation(value: unknown, what: string): SummaryPresentation {
  if (value !== "system" && value !== "tool") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be "system" (a system message) or "tool" (a summarize_history call and its result); got ` +
        `${describe(value)}.`,
    );
  }
  return value;
}
