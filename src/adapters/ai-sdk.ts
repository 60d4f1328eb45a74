// The AI SDK (`ai` 7): chat messages to ModelMessages and back, and a prepareStep that
// rebuilds each step's context from the chat. Type imports only: nothing of `ai` is loaded.
import type { AssistantModelMessage, ModelMessage, ToolResultPart } from "ai";
import type { ContextWindow } from "../context/types.js";
import type { OpenAIMessage } from "../context/format.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Message, MessageInput, ToolCall } from "../message.js";
import { argumentsText, checked, objectAt, parseArguments, stringAt, unsupported } from "./common.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";

/** What `generateText` / `streamText` take: the instructions (system prompt, memory, the chat's system messages) and the messages. */
export interface ModelContext {
  instructions: string;
  messages: ModelMessage[];
}

type Convertible = Pick<Message, "role" | "content" | "name" | "toolCalls" | "toolCallId">;

/**
 * A context built by `chat.buildContext()` (the default OpenAI format) as the AI SDK takes
 * it: `{ instructions, messages }`, to spread into `generateText` / `streamText`. System
 * prompt, memory and the chat's system messages go to `instructions` (the AI SDK refuses
 * system messages among `messages` by default); tool calls become tool-call parts (input
 * parsed from the JSON arguments), tool results tool-result parts with the tool's name
 * (the result's own `name`, else the name of the call it answers) and a text output.
 * @throws INVALID_ARGUMENT for a context in another format
 */
export function toModelContext(context: ContextWindow<OpenAIMessage>): ModelContext {
  const c = objectAt(context, "toModelContext(context)") as unknown as ContextWindow;
  if (c.format !== "openai" || !Array.isArray(c.conversation)) {
    throw new CtxloomError("INVALID_ARGUMENT", `toModelContext(context) takes a context built in the "openai" format (the default); got format ${describe(c.format)}.`);
  }
  const conversation: Convertible[] = [...c.conversation];
  if (c.input !== null) conversation.push({ role: "user", content: c.input });
  const system = [c.system, c.memory, ...conversation.filter((m) => m.role === "system").map((m) => m.content)];
  return { instructions: system.filter((t) => t.length > 0).join("\n\n"), messages: toModelMessages(conversation.filter((m) => m.role !== "system")) };
}

/** Chat messages (system ones included, as system messages) to ModelMessages; consecutive tool results share one tool message. */
export function toModelMessages(messages: readonly Convertible[]): ModelMessage[] {
  const names = new Map<string, string>();
  const out: ModelMessage[] = [];
  for (const m of messages) {
    if (m.role === "tool") {
      const part: ToolResultPart = {
        type: "tool-result", toolCallId: m.toolCallId!, toolName: m.name ?? names.get(m.toolCallId!) ?? "unknown", output: { type: "text", value: m.content },
      };
      const last = out[out.length - 1];
      if (last && last.role === "tool") last.content.push(part);
      else out.push({ role: "tool", content: [part] });
    } else if (m.role === "assistant" && m.toolCalls) {
      const content: Exclude<AssistantModelMessage["content"], string> = m.content.length > 0 ? [{ type: "text", text: m.content }] : [];
      for (const call of m.toolCalls) {
        names.set(call.id, call.function.name);
        content.push({ type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: parseArguments(call.function.arguments) });
      }
      out.push({ role: "assistant", content });
    } else {
      out.push({ role: m.role, content: m.content });
    }
  }
  return out;
}

/** Options of `fromModelMessages`. */
export interface FromModelOptions {
  /** Reasoning parts: "refuse" (default, UNSUPPORTED_CONTENT) or "drop" (left out: fine for providers that do not need them back). */
  reasoning?: "refuse" | "drop";
}

/**
 * ModelMessages (a `generateText` / `streamText` result's `response.messages`, or a
 * request's messages) to inputs for `chat.append`: text parts join, tool-call parts become
 * `toolCalls` (input as JSON text), each tool-result its own tool message named by its
 * tool (a json output as JSON text, an error output starting with "Error: ", a denied
 * execution as "Execution denied: <reason>"). Files, images, provider-executed tools and
 * approvals are refused with UNSUPPORTED_CONTENT; reasoning too unless `{ reasoning: "drop" }`.
 * @throws INVALID_ARGUMENT, INVALID_ROLE, UNSUPPORTED_CONTENT, and append's own codes
 */
export function fromModelMessages(messages: readonly ModelMessage[], options?: FromModelOptions): MessageInput[] {
  const o = checkOptions<FromModelOptions>(options, "fromModelMessages(messages, options)", ["reasoning"]);
  if (o.reasoning !== undefined && o.reasoning !== "refuse" && o.reasoning !== "drop") {
    throw new CtxloomError("INVALID_ARGUMENT", `reasoning must be "refuse" or "drop"; got ${describe(o.reasoning)}.`);
  }
  if (!Array.isArray(messages)) throw new CtxloomError("INVALID_ARGUMENT", `fromModelMessages(messages) takes a list of ModelMessages; got ${describe(messages)}.`);
  const out: MessageInput[] = [];
  messages.forEach((value: unknown, i) => out.push(...convert(value, `fromModelMessages(messages)[${i}]`, o.reasoning === "drop")));
  return checked(out);
}

function convert(value: unknown, where: string, dropReasoning: boolean): MessageInput[] {
  const m = objectAt(value, where);
  const role = m.role;
  if (role !== "system" && role !== "user" && role !== "assistant" && role !== "tool") {
    throw new CtxloomError("INVALID_ROLE", `${where}.role must be system, user, assistant or tool; got ${describe(role)}.`);
  }
  if (typeof m.content === "string") {
    if (role === "tool") throw new CtxloomError("INVALID_CONTENT", `${where}: a tool message's content is a list of tool-result parts.`);
    return [{ role, content: m.content }];
  }
  if (!Array.isArray(m.content)) throw new CtxloomError("INVALID_CONTENT", `${where}.content must be a string or a list of parts; got ${describe(m.content)}.`);
  const texts: string[] = [];
  const calls: ToolCall[] = [];
  const results: MessageInput[] = [];
  m.content.forEach((value: unknown, j) => {
    const at = `${where}.content[${j}]`;
    const p = objectAt(value, at);
    if (p.type === "text" && role !== "tool") texts.push(stringAt(p.text, `${at}.text`));
    else if (p.type === "reasoning" && dropReasoning) return;
    else if (p.type === "tool-call" && role === "assistant") {
      if (p.providerExecuted === true) unsupported(at, "a provider-executed tool call", "keep provider-executed tools out of chats kept by ctxloom.");
      const name = stringAt(p.toolName, `${at}.toolName`);
      calls.push({ id: stringAt(p.toolCallId, `${at}.toolCallId`), type: "function", function: { name, arguments: argumentsText(p.input, `${at}.input`) } });
    } else if (p.type === "tool-result" && role === "tool") {
      results.push({ role: "tool", toolCallId: stringAt(p.toolCallId, `${at}.toolCallId`), name: stringAt(p.toolName, `${at}.toolName`), content: outputText(p.output, `${at}.output`) });
    } else {
      const todo = p.type === "reasoning" ? 'pass { reasoning: "drop" } to leave reasoning out.' : "send it in the request yourself, or describe it in text.";
      unsupported(at, `a part of type ${describe(p.type)} in a ${role} message`, todo);
    }
  });
  if (role === "tool") return results;
  const content = texts.join("");
  if (calls.length > 0) return [{ role, content, toolCalls: calls }];
  return [{ role, content }];
}

function outputText(output: unknown, where: string): string {
  const o = objectAt(output, where);
  switch (o.type) {
    case "text":
      return stringAt(o.value, `${where}.value`);
    case "error-text":
      return TOOL_ERROR_PREFIX + stringAt(o.value, `${where}.value`);
    case "json":
      return argumentsText(o.value, `${where}.value`);
    case "error-json":
      return TOOL_ERROR_PREFIX + argumentsText(o.value, `${where}.value`);
    case "execution-denied":
      return typeof o.reason === "string" && o.reason.length > 0 ? `Execution denied: ${o.reason}` : "Execution denied.";
    case "content": {
      if (!Array.isArray(o.value)) throw new CtxloomError("INVALID_CONTENT", `${where}.value must be a list of parts; got ${describe(o.value)}.`);
      return o.value
        .map((value: unknown, i) => {
          const p = objectAt(value, `${where}.value[${i}]`);
          if (p.type === "text") return stringAt(p.text, `${where}.value[${i}].text`);
          return unsupported(`${where}.value[${i}]`, `a tool output part of type ${describe(p.type)}`, "return the tool's result as text.");
        })
        .join("");
    }
    default:
      return unsupported(where, `a tool output of type ${describe(o.type)}`, "return the tool's result as text or JSON.");
  }
}
