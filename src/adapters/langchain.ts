// LangChain (`@langchain/core` 1): chat messages to BaseMessages and back.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { OpenAIMessage } from "../context/format.js";
import { base64Of, isUrl, mediaTypeOf, partsToSend, textOf as textOfMessage } from "../context/parts-format.js";
import type { ContextWindow } from "../context/types.js";
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart, Message, MessageInput, ToolCall } from "../message.js";
import { withoutCompactions } from "../parts.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";
import {
  argumentsText,
  bytesToBase64,
  contentOf,
  convertEach,
  fromOptions,
  objectAt,
  parseArguments,
  stringAt,
  unsupported,
  type ConvertibleMessage,
  type FromOptions,
  type ReasoningMode,
} from "./common.js";

/**
 * A built context (the default "openai" format: system prompt and memory as system
 * messages, then the conversation and the input), or chat messages, as LangChain messages:
 * SystemMessage, HumanMessage, AIMessage (tool calls with their args parsed), ToolMessage.
 * Images and files become LangChain's standard image and file blocks (URL, or base64 data
 * with its mimeType); reasoning with a signature an Anthropic `thinking` block, redacted
 * reasoning a `redacted_thinking` block (what ChatAnthropic sends back), other reasoning a
 * standard `reasoning` block.
 * @throws INVALID_ARGUMENT for a context in another format
 */
export function toLangChainMessages(
  source: ContextWindow<OpenAIMessage> | readonly ConvertibleMessage[],
): BaseMessage[] {
  let messages: readonly ConvertibleMessage[];
  if (Array.isArray(source)) messages = source;
  else {
    const c = objectAt(source, "toLangChainMessages(context)") as unknown as ContextWindow;
    if (c.format !== "openai" || !Array.isArray(c.conversation)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `toLangChainMessages(context) takes a context built in the "openai" format (the default), or chat messages; ` +
          `got format ${describe(c.format)}.`,
      );
    }
    const lead = [c.system, c.memory]
      .filter((t) => t.length > 0)
      .map((content) => ({ role: "system" as const, content }));
    messages = [...lead, ...c.conversation, ...(c.input === null ? [] : [{ role: "user" as const, content: c.input }])];
  }
  return messages.map((m): BaseMessage => {
    const name = m.name === undefined ? {} : { name: m.name };
    const parts = partsToSend(m);
    const content = parts ? withoutCompactions(parts).map(langChainBlock) : textOfMessage(m);
    switch (m.role) {
      case "system":
        return new SystemMessage({ content: textOfMessage(m), ...name });
      case "user":
        return new HumanMessage({ content, ...name });
      case "tool":
        return new ToolMessage({ content, tool_call_id: m.toolCallId!, ...name }); // text, or text and image blocks
      case "assistant": {
        const calls = (m.toolCalls ?? []).map((c) => ({
          id: c.id,
          name: c.function.name,
          args: argsObject(parseArguments(c.function.arguments)),
          type: "tool_call" as const,
        }));
        return new AIMessage({ content, ...name, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      }
    }
  });
}

function langChainBlock(p: Exclude<ContentPart, { type: "compaction" }>): Record<string, unknown> & { type: string } {
  switch (p.type) {
    case "text":
      return { type: "text", text: p.text };
    case "reasoning":
      return p.signature === undefined
        ? { type: "reasoning", reasoning: p.text }
        : { type: "thinking", thinking: p.text, signature: p.signature };
    case "redacted-reasoning":
      return { type: "redacted_thinking", data: p.data };
    case "image":
    case "file": {
      const source = isUrl(p)
        ? { url: p.type === "image" ? p.image : p.data }
        : { data: base64Of(p)!, mimeType: mediaTypeOf(p) };
      const meta = p.type === "file" && p.filename !== undefined ? { metadata: { filename: p.filename } } : {};
      return { type: p.type, ...source, ...(isUrl(p) ? { mimeType: mediaTypeOf(p) } : {}), ...meta };
    }
  }
}

function argsObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { value };
}

const ROLE_OF: Record<string, Message["role"]> = { human: "user", ai: "assistant", system: "system", tool: "tool" };

/**
 * LangChain messages (one or a list: a model's AIMessage with tool_calls, ToolMessages,
 * HumanMessage, SystemMessage) to inputs for `chat.append`: text blocks join, tool_calls
 * become `toolCalls` (args as JSON text), a ToolMessage a tool message (status "error":
 * its content starts with "Error: "). Image blocks (standard, or OpenAI-style image_url)
 * and file blocks become image and file parts, thinking / redacted_thinking / reasoning
 * blocks reasoning parts. Files by id, audio, video, invalid tool calls and other message
 * types are refused with UNSUPPORTED_CONTENT.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes
 */
export function fromLangChainMessages(
  messages: BaseMessage | readonly BaseMessage[],
  options?: FromOptions,
): MessageInput[] {
  const { reasoning } = fromOptions(options, "fromLangChainMessages");
  return convertEach(messages, "fromLangChainMessages", (m, where) => convert(m, where, reasoning));
}

function convert(value: unknown, where: string, reasoning: ReasoningMode): MessageInput {
  const m = objectAt(value, where);
  const type = typeof m.type === "string" ? m.type : undefined;
  const role = type === undefined ? undefined : ROLE_OF[type];
  if (!role)
    unsupported(where, `a message of type ${describe(m.type)}`, "convert it to a human, ai, system or tool message.");
  const out: MessageInput = { role, content: textOf(m.content, `${where}.content`, reasoning) };
  if (typeof m.name === "string" && m.name.length > 0) out.name = m.name;
  if (role === "assistant") {
    if (Array.isArray(m.invalid_tool_calls) && m.invalid_tool_calls.length > 0) {
      unsupported(
        `${where}.invalid_tool_calls`,
        "a tool call the model wrote badly",
        "retry the model call, or answer the call yourself before appending.",
      );
    }
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      out.toolCalls = m.tool_calls.map((value: unknown, i): ToolCall => {
        const at = `${where}.tool_calls[${i}]`;
        const c = objectAt(value, at);
        if (typeof c.id !== "string" || c.id.length === 0)
          throw new CtxloomError("INVALID_TOOL_CALL", `${at} has no id; give every tool call an id.`);
        return {
          id: c.id,
          type: "function",
          function: { name: stringAt(c.name, `${at}.name`), arguments: argumentsText(c.args, `${at}.args`) },
        };
      });
    }
  }
  if (role === "tool") {
    out.toolCallId = stringAt(m.tool_call_id, `${where}.tool_call_id`);
    const content = out.content;
    if (typeof content !== "string" && content.some((p) => p.type !== "text" && p.type !== "image")) {
      unsupported(
        `${where}.content`,
        "a tool result with files or reasoning",
        "a tool result carries text and images only; return the rest as text.",
      );
    }
    if (m.status === "error") {
      if (typeof content === "string") out.content = TOOL_ERROR_PREFIX + content;
      else
        out.content =
          content[0]?.type === "text"
            ? [{ type: "text", text: TOOL_ERROR_PREFIX + content[0].text }, ...content.slice(1)]
            : [{ type: "text", text: TOOL_ERROR_PREFIX.trimEnd() }, ...content];
    }
  }
  return out;
}

const REASONING = ["reasoning", "thinking", "redacted_thinking"];

function textOf(content: unknown, where: string, reasoning: ReasoningMode): string | ContentPart[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content))
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${where} must be a string or a list of blocks; got ${describe(content)}.`,
    );
  const parts: ContentPart[] = [];
  content.forEach((value: unknown, i) => {
    const at = `${where}[${i}]`;
    const b = objectAt(value, at);
    if (b.type === "text") parts.push({ type: "text", text: stringAt(b.text, `${at}.text`) });
    else if (REASONING.includes(b.type as string) && reasoning === "drop") return;
    else if (b.type === "reasoning" && reasoning === "keep")
      parts.push({ type: "reasoning", text: stringAt(b.reasoning, `${at}.reasoning`) });
    else if (b.type === "thinking" && reasoning === "keep") {
      const part: ContentPart = { type: "reasoning", text: stringAt(b.thinking, `${at}.thinking`) };
      if (typeof b.signature === "string" && b.signature.length > 0) part.signature = b.signature;
      parts.push(part);
    } else if (b.type === "redacted_thinking" && reasoning === "keep")
      parts.push({ type: "redacted-reasoning", data: stringAt(b.data, `${at}.data`) });
    else if (b.type === "image_url") {
      const img = typeof b.image_url === "string" ? { url: b.image_url } : objectAt(b.image_url, `${at}.image_url`);
      const part: ContentPart = { type: "image", image: stringAt(img.url, `${at}.image_url.url`) };
      if (img.detail === "low" || img.detail === "high" || img.detail === "auto") part.detail = img.detail;
      parts.push(part);
    } else if (b.type === "image" || b.type === "file") parts.push(dataBlock(b, at));
    else if (b.type === "tool_use" || b.type === "tool_call" || b.type === "function_call")
      return; // the same calls as tool_calls, which carry them
    else {
      const todo = REASONING.includes(b.type as string)
        ? 'pass { reasoning: "keep" } or { reasoning: "drop" }.'
        : "send it in the request yourself, or describe it in text.";
      unsupported(at, `a block of type ${describe(b.type)}`, todo);
    }
  });
  return contentOf(parts, "");
}

/**
 * A standard image or file block (url, or base64 data with its mimeType; the older source_type / mime_type spelling
 * too).
 */
function dataBlock(b: Record<string, unknown>, at: string): ContentPart {
  const mimeType =
    typeof b.mimeType === "string" ? b.mimeType : typeof b.mime_type === "string" ? b.mime_type : undefined;
  let source: string;
  if (typeof b.url === "string") source = b.url;
  else if (typeof b.data === "string") source = b.data;
  else if (b.data instanceof Uint8Array) source = bytesToBase64(b.data);
  else
    return unsupported(
      at,
      `a ${b.type as string} block without url or data (a file id?)`,
      "pass its bytes or URL to keep it in the chat.",
    );
  if (b.type === "image")
    return mimeType === undefined
      ? { type: "image", image: source }
      : { type: "image", image: source, mediaType: mimeType };
  const meta = b.metadata as Record<string, unknown> | undefined;
  const filename =
    meta && typeof meta.filename === "string" && meta.filename.length > 0 ? { filename: meta.filename } : {};
  if (mimeType === undefined)
    return unsupported(at, "a file block without a mimeType", 'give its mimeType, e.g. "application/pdf".');
  return { type: "file", data: source, mediaType: mimeType, ...filename };
}
