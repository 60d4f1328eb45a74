/**
 * OpenAI's Responses API input, as a chat's messages are sent to it: the item types (message, function call and its
 * output, reasoning, compaction; ResponsesItem) and toResponses, which converts messages to them.
 */
import type { ContentPart, Message } from "../message.js";
import { partsToSend, responsesParts, type ResponsesContentPart } from "./parts-format.js";

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
