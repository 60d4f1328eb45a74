// The AI SDK's UIMessages (what useChat shows) from a chat's branch, and back to chat messages.
import type { UIMessage } from "ai";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { MessageInput, ToolCall } from "../message.js";
import type { ChatView } from "../tree/chat-view.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";
import { argumentsText, checked, objectAt, parseArguments, stringAt, unsupported } from "./common.js";

/** Where a UIMessage sits in the chat's tree: a UI can show "2 / 3" and switch branches with `chat.checkout`. */
export interface ChatUIMetadata {
  /** The chat message's id (the UIMessage's `id` is its decimal string). */
  messageId: number;
  parentId: number | null;
  /** This message among its parent's children (its alternative versions), oldest first. */
  branch: { index: number; count: number; ids: number[] };
}

/** A UIMessage of a chat, with its place in the tree as metadata. */
export type ChatUIMessage = UIMessage<ChatUIMetadata>;

/**
 * The branch ending at the head (or at `options.leaf`) as UIMessages: stable string ids (the
 * message ids), system messages kept, an assistant's tool calls as dynamic-tool parts
 * carrying their results (the tool messages fold into them), and `metadata.branch` telling
 * the UI where each message sits among its siblings.
 * @throws INVALID_ARGUMENT, UNKNOWN_MESSAGE
 */
export function toUIMessages(chat: ChatView, options?: { leaf?: number }): ChatUIMessage[] {
  const o = checkOptions<{ leaf?: number }>(options, "toUIMessages(chat, options)", ["leaf"]);
  const path = o.leaf === undefined ? chat.path() : chat.path(o.leaf);
  const out: ChatUIMessage[] = [];
  const parts = new Map<string, Extract<ChatUIMessage["parts"][number], { type: "dynamic-tool" }>>();
  for (const m of path) {
    if (m.role === "tool") {
      const part = parts.get(m.toolCallId!);
      if (part) Object.assign(part, { state: "output-available", output: m.content });
      continue;
    }
    const siblings = m.parentId === null ? chat.roots() : chat.children(m.parentId);
    const ui: ChatUIMessage = {
      id: String(m.id),
      role: m.role,
      metadata: { messageId: m.id, parentId: m.parentId, branch: { index: siblings.indexOf(m.id), count: siblings.length, ids: siblings } },
      parts: m.content.length > 0 ? [{ type: "text", text: m.content }] : [],
    };
    for (const call of m.toolCalls ?? []) {
      const part = { type: "dynamic-tool" as const, toolName: call.function.name, toolCallId: call.id, state: "input-available" as const, input: parseArguments(call.function.arguments) };
      parts.set(call.id, part);
      ui.parts.push(part);
    }
    out.push(ui);
  }
  return out;
}

/**
 * UIMessages (from useChat, or stored by a UI) to inputs for `chat.append`, in order: text
 * parts join; tool parts (typed `tool-<name>` or dynamic) become tool calls, and their
 * outputs tool messages (an error output starting with "Error: ", a denied one "Execution
 * denied."); an assistant message that goes on after its tool results becomes several
 * messages; step-start markers carry nothing. Reasoning, files, sources, data parts and
 * tool calls still streaming or awaiting approval are refused with UNSUPPORTED_CONTENT.
 * @throws INVALID_ARGUMENT, INVALID_ROLE, UNSUPPORTED_CONTENT, and append's own codes
 */
export function fromUIMessages(messages: readonly UIMessage[]): MessageInput[] {
  if (!Array.isArray(messages)) throw new CtxloomError("INVALID_ARGUMENT", `fromUIMessages(messages) takes a list of UIMessages; got ${describe(messages)}.`);
  const out: MessageInput[] = [];
  messages.forEach((value: unknown, i) => {
    const where = `fromUIMessages(messages)[${i}]`;
    const m = objectAt(value, where);
    if (m.role !== "system" && m.role !== "user" && m.role !== "assistant") {
      throw new CtxloomError("INVALID_ROLE", `${where}.role must be system, user or assistant; got ${describe(m.role)}.`);
    }
    const role = m.role;
    if (!Array.isArray(m.parts)) throw new CtxloomError("INVALID_CONTENT", `${where}.parts must be a list; got ${describe(m.parts)}.`);
    let texts: string[] = [];
    let calls: ToolCall[] = [];
    let results: MessageInput[] = [];
    const flush = () => {
      if (texts.length === 0 && calls.length === 0) return;
      out.push(calls.length > 0 ? { role, content: texts.join(""), toolCalls: calls } : { role, content: texts.join("") }, ...results);
      [texts, calls, results] = [[], [], []];
    };
    m.parts.forEach((value: unknown, j) => {
      const at = `${where}.parts[${j}]`;
      const p = objectAt(value, at);
      const type = typeof p.type === "string" ? p.type : "";
      if (type === "step-start") return;
      if (type === "text") {
        if (calls.length > 0) flush();
        texts.push(stringAt(p.text, `${at}.text`));
      } else if (role === "assistant" && (type === "dynamic-tool" || type.startsWith("tool-"))) {
        const name = type === "dynamic-tool" ? stringAt(p.toolName, `${at}.toolName`) : type.slice(5);
        const id = stringAt(p.toolCallId, `${at}.toolCallId`);
        if (p.state !== "input-available" && p.state !== "output-available" && p.state !== "output-error" && p.state !== "output-denied") {
          unsupported(at, `a tool call in state ${describe(p.state)}`, "append the message once the call's input is complete and approved.");
        }
        if (p.providerExecuted === true) unsupported(at, "a provider-executed tool call", "keep provider-executed tools out of chats kept by ctxloom.");
        calls.push({ id, type: "function", function: { name, arguments: argumentsText(p.input, `${at}.input`) } });
        if (p.state === "input-available") return;
        const content = p.state === "output-error" ? TOOL_ERROR_PREFIX + stringAt(p.errorText, `${at}.errorText`)
          : p.state === "output-denied" ? "Execution denied."
          : typeof p.output === "string" ? p.output : argumentsText(p.output, `${at}.output`);
        results.push({ role: "tool", toolCallId: id, name, content });
      } else {
        unsupported(at, `a part of type ${describe(p.type)} in a ${role} message`, "send it in the request yourself, or describe it in text.");
      }
    });
    if (texts.length === 0 && calls.length === 0) texts.push(""); // an empty message is append's to refuse
    flush();
  });
  return checked(out);
}
