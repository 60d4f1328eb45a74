// Anthropic's Messages objects to chat messages: what `chat.append` takes.
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart, MessageInput, ToolCall } from "../message.js";
import {
  argumentsText,
  contentOf,
  convertEach,
  fromOptions,
  objectAt,
  stringAt,
  textToBase64,
  unsupported,
  type FromOptions,
  type ReasoningMode,
} from "./common.js";

/**
 * A content block of Anthropic's Messages API (response `ContentBlock` or request `ContentBlockParam`), structurally.
 */
export interface AnthropicBlockLike {
  /** The block's type ("text", "tool_use", "tool_result", "image", "thinking", ...). */
  type: string;
  /** A text block's text. */
  text?: string;
  /** A tool_use block's id (or a compaction block's). */
  id?: string;
  /** A tool_use block's tool name. */
  name?: string;
  /** A tool_use block's input. */
  input?: unknown;
  /** A tool_result block's id of the tool_use it answers. */
  tool_use_id?: string;
  /** A tool_result block's content (text, or text and image blocks); a compaction block's summary. */
  content?: unknown;
  /** Whether a tool_result block reports a failed call. */
  is_error?: boolean | null;
  /** A thinking block's reasoning text. */
  thinking?: string;
  /** A thinking block's signature, sent back with it. */
  signature?: string | null;
  /** A redacted_thinking block's encrypted reasoning. */
  data?: string;
  /** An image or document block's source (base64 data, a URL or text). */
  source?: unknown;
  /** A document block's title. */
  title?: string | null;
  /** A compaction block's encrypted content. */
  encrypted_content?: string | null;
}

/**
 * A message of Anthropic's Messages API as the `@anthropic-ai/sdk` types it: a response
 * (`Message`) or a request's `MessageParam`. Structural, so nothing of the SDK is imported.
 */
export interface AnthropicMessageLike {
  /** "user" or "assistant" (a system message is refused). */
  role: string;
  /** (Optional in the type only: the beta SDK's system message may leave it out; a message without it is refused.) */
  content?: string | readonly AnthropicBlockLike[];
}

/** What a tool result that failed (is_error) starts with once it is a tool message. */
export const TOOL_ERROR_PREFIX = "Error: ";

/**
 * Converts Anthropic messages (a response's `Message`, or request `MessageParam`s; one or
 * a list) to inputs for `chat.append`, in order: text blocks join into the content,
 * tool_use blocks become `toolCalls` (input as JSON text), each tool_result block its own
 * tool message (before the user's text of the same message, as Anthropic orders them;
 * a failed one, is_error, starts with "Error: "). Thinking blocks become reasoning parts
 * with their signature, redacted_thinking blocks redacted-reasoning parts (or are left out,
 * or refused, by `options.reasoning`), image blocks image
 * parts, documents (PDF or plain text, bytes or URL) file parts: the message's content is
 * then the list of parts; a tool_result with image blocks keeps them as image parts of its
 * tool message. A compaction block (the beta `compact_20260112` edit, or `compaction`) becomes
 * a compaction part, kept as it came (without a cache_control: ctxloom marks breakpoints
 * itself) and sent back, first, in the Anthropic format only, where it stands for everything
 * before it. Server tools, citations' sources and documents inside tool results are
 * refused with UNSUPPORTED_CONTENT, never dropped.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes for a malformed message
 */
export function fromAnthropicMessages(
  messages: AnthropicMessageLike | readonly AnthropicMessageLike[],
  options?: FromOptions,
): MessageInput[] {
  const { reasoning } = fromOptions(options, "fromAnthropicMessages");
  return convertEach(messages, "fromAnthropicMessages", (m, where) => convert(m, where, reasoning));
}

function convert(value: unknown, where: string, reasoning: ReasoningMode): MessageInput[] {
  const m = objectAt(value, where);
  if (m.role !== "user" && m.role !== "assistant") {
    throw new CtxloomError(
      "INVALID_ROLE",
      `${where}.role must be "user" or "assistant" (Anthropic keeps the system prompt apart); got ${describe(m.role)}.`,
    );
  }
  const role = m.role;
  if (typeof m.content === "string") return [{ role, content: m.content }];
  if (!Array.isArray(m.content))
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${where}.content must be a string or a list of blocks; got ${describe(m.content)}.`,
    );
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const results: MessageInput[] = [];
  m.content.forEach((value: unknown, i) => {
    const at = `${where}.content[${i}]`;
    const b = objectAt(value, at);
    switch (b.type) {
      case "text":
        parts.push({ type: "text", text: stringAt(b.text, `${at}.text`) });
        return;
      case "tool_use":
        if (role !== "assistant")
          throw new CtxloomError(
            "INVALID_TOOL_CALL",
            `${at} is a tool_use block in a user message; only the assistant calls tools.`,
          );
        calls.push({
          id: stringAt(b.id, `${at}.id`),
          type: "function",
          function: { name: stringAt(b.name, `${at}.name`), arguments: argumentsText(b.input, `${at}.input`) },
        });
        return;
      case "tool_result": {
        if (role !== "user")
          throw new CtxloomError(
            "INVALID_TOOL_CALL",
            `${at} is a tool_result block in an assistant message; tool results come in user messages.`,
          );
        const content = resultContent(b.content, `${at}.content`);
        results.push({
          role: "tool",
          toolCallId: stringAt(b.tool_use_id, `${at}.tool_use_id`),
          content: b.is_error === true ? markError(content) : content,
        });
        return;
      }
      case "thinking":
      case "redacted_thinking": {
        if (reasoning === "drop") return;
        if (reasoning === "refuse")
          return unsupported(at, `a ${b.type} block`, 'pass { reasoning: "keep" } or { reasoning: "drop" }.');
        if (b.type === "redacted_thinking")
          return void parts.push({ type: "redacted-reasoning", data: stringAt(b.data, `${at}.data`) });
        const part: ContentPart = { type: "reasoning", text: stringAt(b.thinking, `${at}.thinking`) };
        if (typeof b.signature === "string" && b.signature.length > 0) part.signature = b.signature;
        parts.push(part);
        return;
      }
      case "image":
      case "document":
        parts.push(mediaPart(b, at));
        return;
      case "compaction": {
        const { cache_control: _, ...block } = b;
        parts.push({ type: "compaction", provider: "anthropic", data: JSON.stringify(block) });
        return;
      }
      default:
        return unsupported(
          at,
          `a block of type ${describe(b.type)}`,
          "send it in the request yourself, or describe it in text.",
        );
    }
  });
  const out: MessageInput[] = [...results];
  const content = contentOf(parts, "\n\n");
  if (calls.length > 0) out.push({ role, content, toolCalls: calls });
  else if (content.length > 0 || results.length === 0) out.push({ role, content });
  return out;
}

/** An image or document block as an image or file part. */
function mediaPart(b: Record<string, unknown>, at: string): ContentPart {
  const s = objectAt(b.source, `${at}.source`);
  const title = typeof b.title === "string" && b.title.length > 0 ? { filename: b.title } : {};
  if (b.type === "image") {
    if (s.type === "base64")
      return {
        type: "image",
        image: stringAt(s.data, `${at}.source.data`),
        mediaType: stringAt(s.media_type, `${at}.source.media_type`),
      };
    if (s.type === "url") return { type: "image", image: stringAt(s.url, `${at}.source.url`) };
  } else {
    if (s.type === "base64")
      return {
        type: "file",
        data: stringAt(s.data, `${at}.source.data`),
        mediaType: stringAt(s.media_type, `${at}.source.media_type`),
        ...title,
      };
    if (s.type === "url")
      return { type: "file", data: stringAt(s.url, `${at}.source.url`), mediaType: "application/pdf", ...title };
    if (s.type === "text")
      return {
        type: "file",
        data: textToBase64(stringAt(s.data, `${at}.source.data`)),
        mediaType: "text/plain",
        ...title,
      };
  }
  return unsupported(
    `${at}.source`,
    `a source of type ${describe(s.type)}`,
    "send the bytes (base64) or a URL instead of a file id or content blocks.",
  );
}

/** A tool_result's content: its text blocks joined, or (with images) text and image parts. */
function resultContent(content: unknown, where: string): string | ContentPart[] {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content))
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${where} must be a string or a list of blocks; got ${describe(content)}.`,
    );
  const parts = content.map((value: unknown, i): ContentPart => {
    const b = objectAt(value, `${where}[${i}]`);
    if (b.type === "text") return { type: "text", text: stringAt(b.text, `${where}[${i}].text`) };
    if (b.type === "image") return mediaPart(b, `${where}[${i}]`);
    return unsupported(
      `${where}[${i}]`,
      `a tool result block of type ${describe(b.type)}`,
      "a tool result carries text and images only; return the rest as text.",
    );
  });
  return contentOf(parts, "\n\n");
}

/** A failed tool result's content, its text starting with "Error: ". */
function markError(content: string | ContentPart[]): string | ContentPart[] {
  if (typeof content === "string") return TOOL_ERROR_PREFIX + content;
  const first = content[0];
  if (first && first.type === "text")
    return [{ type: "text", text: TOOL_ERROR_PREFIX + first.text }, ...content.slice(1)];
  return [{ type: "text", text: TOOL_ERROR_PREFIX.trimEnd() }, ...content];
}
