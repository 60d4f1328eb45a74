import type { ContentPart, Message } from "../message.js";
import {
  anthropicParts,
  openAIParts,
  openAIToolText,
  partNotes,
  partsToSend,
  responsesParts,
  type AnthropicPartBlock,
  type OpenAIContentPart,
  type ResponsesContentPart,
} from "./parts-format.js";

export type { AnthropicPartBlock, OpenAIContentPart, ResponsesContentPart } from "./parts-format.js";

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

/**
 * A message item of OpenAI's Responses API input (its EasyInputMessage): text, or parts for a user message with images
 * or files.
 */
export interface ResponsesMessageItem {
  /** Always "message". */
  type: "message";
  /** Who wrote it: "system", "user" or "assistant". */
  role: "system" | "user" | "assistant";
  /** The text, or content parts when a user message carries images or files. */
  content: string | ResponsesContentPart[];
}

/** A function call item of the Responses API input (the assistant called a tool). */
export interface ResponsesFunctionCallItem {
  /** Always "function_call". */
  type: "function_call";
  /** The call's id, which the output item answering it names. */
  call_id: string;
  /** The function's name. */
  name: string;
  /** The arguments as JSON text. */
  arguments: string;
}

/** A function call output item of the Responses API input (a tool's result: text, or parts when it carries images). */
export interface ResponsesFunctionCallOutputItem {
  /** Always "function_call_output". */
  type: "function_call_output";
  /** The id of the function call this output answers. */
  call_id: string;
  /** The tool's result: text, or parts when it carries images. */
  output: string | ResponsesContentPart[];
}

/** A reasoning item of the Responses API (ResponseReasoningItem), sent back as OpenAI sent it. */
export interface ResponsesReasoningItem {
  /** Always "reasoning". */
  type: "reasoning";
  /** The item's id, as OpenAI gave it. */
  id: string;
  /** The reasoning's summary texts. */
  summary: { type: "summary_text"; text: string }[];
  /** The encrypted reasoning, when the request asked for it (`include: ["reasoning.encrypted_content"]`). */
  encrypted_content?: string | null;
  /** The reasoning's own texts, when the model returns them. */
  content?: { type: "reasoning_text"; text: string }[];
  /** The item's status, as OpenAI gave it. */
  status?: "in_progress" | "completed" | "incomplete";
}

/** A compaction item of the Responses API (ResponseCompactionItemParam), sent back as OpenAI sent it. */
export interface ResponsesCompactionItem {
  /** Always "compaction". */
  type: "compaction";
  /** OpenAI's encrypted summary of the conversation before it. */
  encrypted_content: string;
  /** The item's id, as OpenAI gave it. */
  id?: string | null;
}

/**
 * An input item of OpenAI's Responses API: a list of them is the `openai` package's
 * ResponseInputItem[] (`responses.create({ input })`) without a cast.
 */
export type ResponsesItem =
  | ResponsesMessageItem
  | ResponsesFunctionCallItem
  | ResponsesFunctionCallOutputItem
  | ResponsesReasoningItem
  | ResponsesCompactionItem;

/**
 * Converts messages to Responses API input items: a message item per text, a function_call
 * item per tool call (after its message's text, if any), a function_call_output per tool
 * result. An assistant message's OpenAI reasoning items and OpenAI compaction go as the
 * items they came as, where they were among its text (another provider's reasoning and
 * compactions are not sent). A tool message's name is not part of the Responses shape.
 */
export function toResponses(
  messages: readonly Pick<Message, "role" | "content" | "toolCalls" | "toolCallId" | "parts">[],
): ResponsesItem[] {
  const items: ResponsesItem[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      const parts = partsToSend(m);
      items.push({
        type: "function_call_output",
        call_id: m.toolCallId!,
        output: parts ? responsesParts(parts) : m.content,
      });
      continue;
    }
    const parts = partsToSend(m);
    if (parts && m.role === "user") items.push({ type: "message", role: m.role, content: responsesParts(parts) });
    else if (parts && m.role === "assistant") assistantItems(parts, m.toolCalls !== undefined, items);
    else if (m.content.length > 0 || !m.toolCalls) items.push({ type: "message", role: m.role, content: m.content });
    for (const c of m.toolCalls ?? [])
      items.push({ type: "function_call", call_id: c.id, name: c.function.name, arguments: c.function.arguments });
  }
  return items;
}

/** An assistant message's parts as Responses items: its texts as message items, OpenAI's own items as they came. */
function assistantItems(parts: readonly ContentPart[], calls: boolean, items: ResponsesItem[]): void {
  const from = items.length;
  let text: string | undefined;
  const flush = () => {
    if (text !== undefined) items.push({ type: "message", role: "assistant", content: text });
    text = undefined;
  };
  for (const p of parts) {
    if (p.type === "text") text = text === undefined ? p.text : `${text}\n${p.text}`;
    else if ((p.type === "reasoning" && p.item !== undefined) || (p.type === "compaction" && p.provider === "openai")) {
      flush();
      items.push(
        JSON.parse(p.type === "reasoning" ? p.item! : p.data) as ResponsesReasoningItem | ResponsesCompactionItem,
      );
    }
  }
  flush();
  if (items.length === from && !calls) items.push({ type: "message", role: "assistant", content: "" });
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
