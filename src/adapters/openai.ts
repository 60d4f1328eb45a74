// OpenAI's Chat Completions objects to chat messages: what `chat.append` takes.
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart, MessageInput, ToolCall } from "../message.js";
import {
  checked,
  contentOf,
  convertEach,
  dataUrlType,
  fromOptions,
  objectAt,
  stringAt,
  unsupported,
  type FromOptions,
} from "./common.js";

/**
 * A message of OpenAI's Chat Completions API, as the `openai` package types it: a response's
 * `ChatCompletionMessage` (content null when it only calls tools) or a request's
 * `ChatCompletionMessageParam`. Structural, so nothing of the SDK is imported.
 */
export interface OpenAIMessageLike {
  /** "system", "developer", "user", "assistant" or "tool". */
  role: string;
  /** The text, or content parts (text, image_url, file). */
  content?: string | null | readonly { type: string; text?: string; image_url?: unknown; file?: unknown }[];
  /** An optional name for the author. */
  name?: string;
  /** An assistant's refusal, when the model refused. */
  refusal?: string | null;
  /** The tools an assistant message called. */
  tool_calls?: readonly { id: string; type: string; function?: { name: string; arguments: string } }[] | null;
  /** On a tool message: the id of the tool call it answers. */
  tool_call_id?: string;
  /** An assistant's audio answer (refused: a chat message cannot carry it). */
  audio?: unknown;
  /** The legacy function call of older answers (refused: use tool calls). */
  function_call?: unknown;
}

/** A Chat Completions response (`ChatCompletion`): its first choice's message is taken. */
export interface OpenAICompletionLike {
  /** The response's choices: the first one's message is taken. */
  choices: readonly { message: OpenAIMessageLike }[];
}

/**
 * Converts OpenAI Chat Completions messages (one, a list, or a whole `ChatCompletion`) to
 * inputs for `chat.append`: content null with tool_calls becomes an assistant message with
 * empty content and `toolCalls`; a refusal becomes the content; "developer" becomes
 * "system"; text parts are joined. A user message's image_url parts become image parts and
 * file parts (bytes as file_data) file parts: its content is then the list of parts.
 * Annotations (URL citations) are not sent back in a request and are not kept. Audio,
 * uploaded file ids, custom tool calls and the old `function_call` are refused with
 * UNSUPPORTED_CONTENT. Chat Completions messages carry no reasoning: `options.reasoning`
 * is checked and changes nothing.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes for a malformed message
 */
export function fromOpenAIMessages(
  messages: OpenAIMessageLike | readonly OpenAIMessageLike[] | OpenAICompletionLike,
  options?: FromOptions,
): MessageInput[] {
  fromOptions(options, "fromOpenAIMessages");
  if (messages !== null && typeof messages === "object" && "choices" in messages) {
    const first = Array.isArray(messages.choices) ? messages.choices[0] : undefined;
    if (!first)
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        "fromOpenAIMessages(completion): the completion has no choices; pass a message instead.",
      );
    return checked([convert(first.message, "fromOpenAIMessages(completion).choices[0].message")]);
  }
  return convertEach(messages, "fromOpenAIMessages", convert);
}

function convert(value: unknown, where: string): MessageInput {
  const m = objectAt(value, where);
  if (m.audio != null)
    unsupported(`${where}.audio`, "an audio reply", "ask for text output, or keep audio replies outside the chat.");
  if (m.function_call != null)
    unsupported(`${where}.function_call`, "a legacy function call", "use tools (tool_calls) instead of functions.");
  const role = m.role === "developer" ? "system" : m.role;
  if (role === "function")
    unsupported(where, 'a legacy function result (role "function")', 'use tool messages (role "tool").');
  if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") {
    throw new CtxloomError(
      "INVALID_ROLE",
      `${where}.role must be system, developer, user, assistant or tool; got ${describe(m.role)}.`,
    );
  }
  let content = textOf(m.content, `${where}.content`);
  if (content === null) content = typeof m.refusal === "string" ? m.refusal : "";
  const out: MessageInput = { role, content };
  if (typeof m.name === "string" && m.name.length > 0) out.name = m.name;
  if (m.tool_calls != null) {
    if (!Array.isArray(m.tool_calls))
      throw new CtxloomError(
        "INVALID_TOOL_CALL",
        `${where}.tool_calls must be an array; got ${describe(m.tool_calls)}.`,
      );
    if (m.tool_calls.length > 0) out.toolCalls = m.tool_calls.map((c, i) => toolCall(c, `${where}.tool_calls[${i}]`));
  }
  if (m.tool_call_id !== undefined) out.toolCallId = stringAt(m.tool_call_id, `${where}.tool_call_id`);
  return out;
}

function toolCall(value: unknown, where: string): ToolCall {
  const c = objectAt(value, where);
  if (c.type === "custom") unsupported(where, "a custom tool call", "declare the tool as a function tool.");
  const fn = objectAt(c.function, `${where}.function`);
  return {
    id: stringAt(c.id, `${where}.id`),
    type: "function",
    function: {
      name: stringAt(fn.name, `${where}.function.name`),
      arguments: stringAt(fn.arguments, `${where}.function.arguments`),
    },
  };
}

/** The content: a string, text parts joined, the parts when one is an image or file, or null when there is none. */
export function textOf(content: unknown, where: string): string | ContentPart[] | null {
  if (content === null || content === undefined) return null;
  if (typeof content === "string") return content;
  if (!Array.isArray(content))
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${where} must be a string, a list of parts or null; got ${describe(content)}.`,
    );
  const parts = content.map((part: unknown, i): ContentPart => {
    const at = `${where}[${i}]`;
    const p = objectAt(part, at);
    if (p.type === "text") return { type: "text", text: stringAt(p.text, `${at}.text`) };
    if (p.type === "refusal") return { type: "text", text: stringAt(p.refusal, `${at}.refusal`) };
    if (p.type === "image_url") {
      const img = objectAt(p.image_url, `${at}.image_url`);
      const out: ContentPart = { type: "image", image: stringAt(img.url, `${at}.image_url.url`) };
      if (img.detail === "low" || img.detail === "high" || img.detail === "auto") out.detail = img.detail;
      return out;
    }
    if (p.type === "file") {
      const f = objectAt(p.file, `${at}.file`);
      if (typeof f.file_data !== "string")
        return unsupported(
          `${at}.file`,
          "a file by upload id",
          "pass the file's bytes (file_data) to keep it in the chat.",
        );
      // Chat Completions takes PDFs: bytes without a data: URL's type are a PDF.
      const out: ContentPart = {
        type: "file",
        data: f.file_data,
        mediaType: dataUrlType(f.file_data) ?? "application/pdf",
      };
      if (typeof f.filename === "string" && f.filename.length > 0) out.filename = f.filename;
      return out;
    }
    return unsupported(
      at,
      `a part of type ${describe(p.type)}`,
      "send it in the request yourself, or describe it in text.",
    );
  });
  return contentOf(parts, "");
}
