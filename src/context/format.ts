/**
 * A chat's messages in the providers' shapes: OpenAI's Chat Completions messages (toOpenAI), Anthropic's Messages
 * (toAnthropic, markCacheBreakpoint) and a plain transcript (toTranscript). The Responses API's items live in
 * format-responses.ts, re-exported here.
 */
import type { Message } from "../message.js";
import {
  anthropicParts,
  openAIParts,
  openAIToolText,
  partNotes,
  partsToSend,
  type AnthropicPartBlock,
  type OpenAIContentPart,
} from "./parts-format.js";

export type { AnthropicPartBlock, OpenAIContentPart, ResponsesContentPart } from "./parts-format.js";
export {
  toResponses,
  type ResponsesCompactionItem,
  type ResponsesFunctionCallItem,
  type ResponsesFunctionCallOutputItem,
  type ResponsesItem,
  type ResponsesMessageItem,
  type ResponsesReasoningItem,
} from "./format-responses.js";

/** A tool call as OpenAI's Chat Completions API takes it. */
export interface OpenAIToolCall {
  /** The call's id, which the tool result answering it names in `tool_call_id`. */
  id: string;
  /** Always "function". */
  type: "function";
  /** The function called: its name and its arguments as JSON text. */
  function: { name: string; arguments: string };
}

/** A system message of OpenAI's Chat Completions API. */
export interface OpenAISystemMessage {
  /** Always "system". */
  role: "system";
  /** The system prompt's text. */
  content: string;
  /** An optional name for the author. */
  name?: string;
}

/** A user message of OpenAI's Chat Completions API: text, or parts when it carries images or files. */
export interface OpenAIUserMessage {
  /** Always "user". */
  role: "user";
  /** The text, or content parts when the message carries images or files. */
  content: string | OpenAIContentPart[];
  /** An optional name for the author. */
  name?: string;
}

/** An assistant message of OpenAI's Chat Completions API, with its tool calls if it made any. */
export interface OpenAIAssistantMessage {
  /** Always "assistant". */
  role: "assistant";
  /** The reply's text ("" when it only called tools). */
  content: string;
  /** An optional name for the author. */
  name?: string;
  /** The tools the model called in this turn. */
  tool_calls?: OpenAIToolCall[];
}

/** A tool result of OpenAI's Chat Completions API. */
export interface OpenAIToolMessage {
  /** Always "tool". */
  role: "tool";
  /** The tool's result as text. */
  content: string;
  /** The id of the tool call this result answers. */
  tool_call_id: string;
  /** The tool's name, when the chat message has one. */
  name?: string;
}

/**
 * A message as OpenAI's Chat Completions API takes it: a union by role, so that a list of
 * them is the `openai` package's ChatCompletionMessageParam[] without a cast.
 */
export type OpenAIMessage = OpenAISystemMessage | OpenAIUserMessage | OpenAIAssistantMessage | OpenAIToolMessage;

/** A prompt-caching breakpoint of Anthropic's Messages API: the request up to this block is cached. */
export interface AnthropicCacheControl {
  /** Always "ephemeral" (Anthropic's default cache lifetime). */
  type: "ephemeral";
}

/** A content block of Anthropic's Messages API. */
export type AnthropicBlock =
  | { type: "text"; text: string; cache_control?: AnthropicCacheControl }
  | { type: "tool_use"; id: string; name: string; input: unknown; cache_control?: AnthropicCacheControl }
  | {
      type: "tool_result";
      tool_use_id: string;
      content: string | AnthropicToolResultBlock[];
      cache_control?: AnthropicCacheControl;
    }
  | (Extract<AnthropicPartBlock, { type: "image" | "document" }> & { cache_control?: AnthropicCacheControl })
  | Extract<AnthropicPartBlock, { type: "thinking" | "redacted_thinking" }>;

/** A block of an Anthropic tool_result's content: text or an image. */
export type AnthropicToolResultBlock = Extract<AnthropicPartBlock, { type: "text" | "image" }>;

/**
 * A message as Anthropic's Messages API takes it: roles alternate, the first is the user's, but
 * after a compaction. A chat holding Anthropic's compaction block (a beta block,
 * `BetaCompactionBlockParam`, which these GA types do not name) sends it first, as it came, in
 * an assistant message: send such a context with `client.beta.messages.create`.
 */
export interface AnthropicMessage {
  /** "user" or "assistant": Anthropic takes the system prompt apart from the messages. */
  role: "user" | "assistant";
  /** The text, or a list of content blocks. */
  content: string | AnthropicBlock[];
}

/**
 * A chat message in OpenAI's shape. A user message with images or files sends its parts
 * (see openAIParts); reasoning and an assistant's files are not sent (Chat Completions
 * takes neither back). A tool result with images sends its text and a line naming each
 * image (Chat Completions tool results carry text only; see openAIToolText).
 */
export function toOpenAI(
  m: Pick<Message, "role" | "content" | "name" | "toolCalls" | "toolCallId" | "parts">,
): OpenAIMessage {
  // Fields in the order they always had: role, content, name, tool_calls, tool_call_id.
  const parts = m.role === "user" ? partsToSend(m) : undefined;
  const content = parts ? openAIParts(parts) : m.role === "tool" && m.parts ? openAIToolText(m) : m.content;
  const out = { role: m.role, content } as OpenAIMessage & {
    name?: string;
    tool_calls?: OpenAIToolCall[];
    tool_call_id?: string;
  };
  if (m.name !== undefined) out.name = m.name;
  if (m.toolCalls)
    out.tool_calls = m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { ...c.function } }));
  if (m.toolCallId !== undefined) out.tool_call_id = m.toolCallId;
  return out;
}

/**
 * Converts a conversation that starts with a user message (no system messages) to
 * Anthropic's shape: tool calls become tool_use blocks, tool results user tool_result
 * blocks, consecutive messages of one role merge.
 */
export function toAnthropic(
  conversation: readonly Pick<Message, "role" | "content" | "toolCalls" | "toolCallId" | "parts">[],
): {
  messages: AnthropicMessage[];
} {
  const merged: { role: "user" | "assistant"; blocks: AnthropicBlock[] }[] = [];
  for (const m of conversation) {
    const role = m.role === "assistant" ? "assistant" : "user";
    const blocks: AnthropicBlock[] = [];
    if (m.role === "tool") {
      const parts = partsToSend(m); // a tool result with images: text and image blocks
      const content = parts
        ? anthropicParts(parts, "user").filter(
            (b): b is AnthropicToolResultBlock => b.type === "text" || b.type === "image",
          )
        : m.content;
      blocks.push({ type: "tool_result", tool_use_id: m.toolCallId!, content });
    } else {
      const parts = partsToSend(m);
      if (parts) blocks.push(...anthropicParts(parts, role));
      else if (m.content.length > 0) blocks.push({ type: "text", text: m.content });
      for (const call of m.toolCalls ?? []) {
        blocks.push({
          type: "tool_use",
          id: call.id,
          name: call.function.name,
          input: parseArguments(call.function.arguments),
        });
      }
    }
    const last = merged[merged.length - 1];
    if (last && last.role === role) last.blocks.push(...blocks);
    else merged.push({ role, blocks });
  }
  const messages = merged.map(({ role, blocks }) => ({
    role,
    content: blocks.length === 1 && blocks[0]!.type === "text" ? blocks[0]!.text : blocks,
  }));
  return { messages };
}

/**
 * Marks the last block of the last message as a prompt-caching breakpoint (Anthropic caches
 * the request up to it, and the next request, which repeats it, reads it back). The message
 * is copied; a string content becomes one text block.
 */
export function markCacheBreakpoint(messages: AnthropicMessage[]): AnthropicMessage[] {
  const last = messages[messages.length - 1];
  if (!last) return messages;
  const blocks =
    typeof last.content === "string"
      ? [{ type: "text" as const, text: last.content }]
      : last.content.map((b) => ({ ...b }));
  const end = blocks[blocks.length - 1];
  // Thinking blocks take no breakpoint (they are cached with the turn around them).
  if (end && end.type !== "thinking" && end.type !== "redacted_thinking")
    blocks[blocks.length - 1] = { ...end, cache_control: { type: "ephemeral" } };
  return [...messages.slice(0, -1), { role: last.role, content: blocks }];
}

function parseArguments(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : { value };
  } catch {
    return { arguments: text };
  }
}

const LABELS: Record<Message["role"], string> = {
  system: "System",
  user: "User",
  assistant: "Assistant",
  tool: "Tool",
};

/** One formatted string: a "Role: text" block per message, blank lines between. */
export function toTranscript(
  messages: readonly Pick<Message, "role" | "content" | "name" | "toolCalls" | "toolCallId" | "parts">[],
): string {
  return messages
    .map((m) => {
      let label = LABELS[m.role];
      if (m.name !== undefined) label += ` (${m.name})`;
      if (m.toolCallId !== undefined) label += ` [${m.toolCallId}]`;
      const calls = (m.toolCalls ?? []).map((c) => `-> ${c.function.name}(${c.function.arguments}) [${c.id}]`);
      return `${label}: ${[m.content, ...partNotes(m.parts), ...calls].filter((s) => s.length > 0).join("\n")}`;
    })
    .join("\n\n");
}

// How a summary is sent is the summary room's (its tokens are counted as it will be sent).
export { SUMMARY_PREFIX, SUMMARY_TOOL, presentSummary, type SummaryPresentation } from "../summary/present.js";
