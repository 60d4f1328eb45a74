// Anthropic's Messages objects to chat messages: what `chat.append` takes.
import { CtxloomError, describe } from "../errors.js";
import type { MessageInput, ToolCall } from "../message.js";
import { argumentsText, checked, listOf, objectAt, stringAt, unsupported } from "./common.js";

/** A content block of Anthropic's Messages API (response `ContentBlock` or request `ContentBlockParam`), structurally. */
export interface AnthropicBlockLike {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean | null;
}

/**
 * A message of Anthropic's Messages API as the `@anthropic-ai/sdk` types it: a response
 * (`Message`) or a request's `MessageParam`. Structural, so nothing of the SDK is imported.
 */
export interface AnthropicMessageLike {
  role: string;
  content: string | readonly AnthropicBlockLike[];
}

/** What a tool result that failed (is_error) starts with once it is a tool message. */
export const TOOL_ERROR_PREFIX = "Error: ";

/**
 * Converts Anthropic messages (a response's `Message`, or request `MessageParam`s; one or
 * a list) to inputs for `chat.append`, in order: text blocks join into the content,
 * tool_use blocks become `toolCalls` (input as JSON text), each tool_result block its own
 * tool message (before the user's text of the same message, as Anthropic orders them;
 * a failed one, is_error, starts with "Error: "). Thinking and redacted_thinking blocks,
 * images, documents and server tools are refused with UNSUPPORTED_CONTENT, never dropped.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes for a malformed message
 */
export function fromAnthropic(message: AnthropicMessageLike | readonly AnthropicMessageLike[]): MessageInput[] {
  const list = listOf(message, "fromAnthropic(messages)");
  const out: MessageInput[] = [];
  list.forEach((m, i) => out.push(...convert(m, Array.isArray(message) ? `fromAnthropic(messages)[${i}]` : "fromAnthropic(message)")));
  return checked(out);
}

function convert(value: unknown, where: string): MessageInput[] {
  const m = objectAt(value, where);
  if (m.role !== "user" && m.role !== "assistant") {
    throw new CtxloomError("INVALID_ROLE", `${where}.role must be "user" or "assistant" (Anthropic keeps the system prompt apart); got ${describe(m.role)}.`);
  }
  const role = m.role;
  if (typeof m.content === "string") return [{ role, content: m.content }];
  if (!Array.isArray(m.content)) throw new CtxloomError("INVALID_CONTENT", `${where}.content must be a string or a list of blocks; got ${describe(m.content)}.`);
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  const results: MessageInput[] = [];
  m.content.forEach((value: unknown, i) => {
    const at = `${where}.content[${i}]`;
    const b = objectAt(value, at);
    switch (b.type) {
      case "text":
        texts.push(stringAt(b.text, `${at}.text`));
        return;
      case "tool_use":
        if (role !== "assistant") throw new CtxloomError("INVALID_TOOL_CALL", `${at} is a tool_use block in a user message; only the assistant calls tools.`);
        calls.push({ id: stringAt(b.id, `${at}.id`), type: "function", function: { name: stringAt(b.name, `${at}.name`), arguments: argumentsText(b.input, `${at}.input`) } });
        return;
      case "tool_result": {
        if (role !== "user") throw new CtxloomError("INVALID_TOOL_CALL", `${at} is a tool_result block in an assistant message; tool results come in user messages.`);
        const text = resultText(b.content, `${at}.content`);
        results.push({ role: "tool", toolCallId: stringAt(b.tool_use_id, `${at}.tool_use_id`), content: b.is_error === true ? TOOL_ERROR_PREFIX + text : text });
        return;
      }
      case "thinking":
      case "redacted_thinking":
        return unsupported(at, `a ${b.type} block`, "turn extended thinking off for chats kept by ctxloom, or keep the turn's blocks yourself until its tool loop ends.");
      default:
        return unsupported(at, `a block of type ${describe(b.type)}`, "send it in the request yourself, or describe it in text.");
    }
  });
  const out: MessageInput[] = [...results];
  const content = texts.join("\n\n");
  if (calls.length > 0) out.push({ role, content, toolCalls: calls });
  else if (content.length > 0 || results.length === 0) out.push({ role, content });
  return out;
}

function resultText(content: unknown, where: string): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new CtxloomError("INVALID_CONTENT", `${where} must be a string or a list of blocks; got ${describe(content)}.`);
  return content
    .map((value: unknown, i) => {
      const b = objectAt(value, `${where}[${i}]`);
      if (b.type === "text") return stringAt(b.text, `${where}[${i}].text`);
      return unsupported(`${where}[${i}]`, `a tool result block of type ${describe(b.type)}`, "return the tool's result as text.");
    })
    .join("\n\n");
}
