// LangChain (`@langchain/core` 1): chat messages to BaseMessages and back.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { OpenAIMessage } from "../context/format.js";
import type { ContextWindow } from "../context/types.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Message, MessageInput, ToolCall } from "../message.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";
import { argumentsText, checked, listOf, objectAt, parseArguments, stringAt, unsupported } from "./common.js";

type Convertible = Pick<Message, "role" | "content" | "name" | "toolCalls" | "toolCallId">;

/**
 * A built context (the default "openai" format: system prompt and memory as system
 * messages, then the conversation and the input), or chat messages, as LangChain messages:
 * SystemMessage, HumanMessage, AIMessage (tool calls with their args parsed), ToolMessage.
 * @throws INVALID_ARGUMENT for a context in another format
 */
export function toLangChain(source: ContextWindow<OpenAIMessage> | readonly Convertible[]): BaseMessage[] {
  let messages: readonly Convertible[];
  if (Array.isArray(source)) messages = source;
  else {
    const c = objectAt(source, "toLangChain(context)") as unknown as ContextWindow;
    if (c.format !== "openai" || !Array.isArray(c.conversation)) {
      throw new CtxloomError("INVALID_ARGUMENT", `toLangChain(context) takes a context built in the "openai" format (the default), or chat messages; got format ${describe(c.format)}.`);
    }
    const lead = [c.system, c.memory].filter((t) => t.length > 0).map((content) => ({ role: "system" as const, content }));
    messages = [...lead, ...c.conversation, ...(c.input === null ? [] : [{ role: "user" as const, content: c.input }])];
  }
  return messages.map((m): BaseMessage => {
    const name = m.name === undefined ? {} : { name: m.name };
    switch (m.role) {
      case "system":
        return new SystemMessage({ content: m.content, ...name });
      case "user":
        return new HumanMessage({ content: m.content, ...name });
      case "tool":
        return new ToolMessage({ content: m.content, tool_call_id: m.toolCallId!, ...name });
      case "assistant": {
        const calls = (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.function.name, args: argsObject(parseArguments(c.function.arguments)), type: "tool_call" as const }));
        return new AIMessage({ content: m.content, ...name, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      }
    }
  });
}

function argsObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

/** Options of `fromLangChain`. */
export interface FromLangChainOptions {
  /** Reasoning blocks: "refuse" (default, UNSUPPORTED_CONTENT) or "drop" (left out). */
  reasoning?: "refuse" | "drop";
}

const ROLE_OF: Record<string, Message["role"]> = { human: "user", ai: "assistant", system: "system", tool: "tool" };

/**
 * LangChain messages (one or a list: a model's AIMessage with tool_calls, ToolMessages,
 * HumanMessage, SystemMessage) to inputs for `chat.append`: text blocks join, tool_calls
 * become `toolCalls` (args as JSON text), a ToolMessage a tool message (status "error":
 * its content starts with "Error: "). Images, files, invalid tool calls and other message
 * types are refused with UNSUPPORTED_CONTENT; reasoning too unless `{ reasoning: "drop" }`.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes
 */
export function fromLangChain(messages: BaseMessage | readonly BaseMessage[], options?: FromLangChainOptions): MessageInput[] {
  const o = checkOptions<FromLangChainOptions>(options, "fromLangChain(messages, options)", ["reasoning"]);
  if (o.reasoning !== undefined && o.reasoning !== "refuse" && o.reasoning !== "drop") {
    throw new CtxloomError("INVALID_ARGUMENT", `reasoning must be "refuse" or "drop"; got ${describe(o.reasoning)}.`);
  }
  const list = listOf(messages, "fromLangChain(messages)");
  return checked(list.map((value, i) => convert(value, Array.isArray(messages) ? `fromLangChain(messages)[${i}]` : "fromLangChain(message)", o.reasoning === "drop")));
}

function convert(value: unknown, where: string, dropReasoning: boolean): MessageInput {
  const m = objectAt(value, where);
  const type = typeof m.type === "string" ? m.type : undefined;
  const role = type === undefined ? undefined : ROLE_OF[type];
  if (!role) unsupported(where, `a message of type ${describe(m.type)}`, "convert it to a human, ai, system or tool message.");
  const out: MessageInput = { role, content: textOf(m.content, `${where}.content`, dropReasoning) };
  if (typeof m.name === "string" && m.name.length > 0) out.name = m.name;
  if (role === "assistant") {
    if (Array.isArray(m.invalid_tool_calls) && m.invalid_tool_calls.length > 0) {
      unsupported(`${where}.invalid_tool_calls`, "a tool call the model wrote badly", "retry the model call, or answer the call yourself before appending.");
    }
    if (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      out.toolCalls = m.tool_calls.map((value: unknown, i): ToolCall => {
        const at = `${where}.tool_calls[${i}]`;
        const c = objectAt(value, at);
        if (typeof c.id !== "string" || c.id.length === 0) throw new CtxloomError("INVALID_TOOL_CALL", `${at} has no id; give every tool call an id.`);
        return { id: c.id, type: "function", function: { name: stringAt(c.name, `${at}.name`), arguments: argumentsText(c.args, `${at}.args`) } };
      });
    }
  }
  if (role === "tool") {
    out.toolCallId = stringAt(m.tool_call_id, `${where}.tool_call_id`);
    if (m.status === "error") out.content = TOOL_ERROR_PREFIX + out.content;
  }
  return out;
}

function textOf(content: unknown, where: string, dropReasoning: boolean): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new CtxloomError("INVALID_CONTENT", `${where} must be a string or a list of blocks; got ${describe(content)}.`);
  const texts: string[] = [];
  content.forEach((value: unknown, i) => {
    const b = objectAt(value, `${where}[${i}]`);
    if (b.type === "text") texts.push(stringAt(b.text, `${where}[${i}].text`));
    else if ((b.type === "reasoning" || b.type === "thinking") && dropReasoning) return;
    else if (b.type === "tool_use" || b.type === "tool_call" || b.type === "function_call") return; // the same calls as tool_calls, which carry them
    else {
      const todo = b.type === "reasoning" || b.type === "thinking" ? 'pass { reasoning: "drop" } to leave reasoning out.' : "send it in the request yourself, or describe it in text.";
      unsupported(`${where}[${i}]`, `a block of type ${describe(b.type)}`, todo);
    }
  });
  return texts.join("");
}
