// OpenAI's Responses API items to chat messages: a response's `output`, or input items.
import { CtxloomError, describe } from "../errors.js";
import type { MessageInput } from "../message.js";
import { checked, listOf, objectAt, stringAt, unsupported } from "./common.js";

/** An item of the Responses API (a response's `output` item or a `ResponseInputItem`), structurally. */
export interface ResponsesItemLike {
  type?: string | null;
  role?: unknown;
  content?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
  output?: unknown;
}

/**
 * Converts Responses API items (a response's `output`, or input items; one or a list) to
 * inputs for `chat.append`: a message item becomes a message (its output_text, input_text
 * and refusal parts joined; "developer" becomes "system"), function_call items join the
 * assistant message just before them as `toolCalls` (or start one with empty content),
 * a function_call_output becomes a tool message. Reasoning items, images, files and
 * built-in tools are refused with UNSUPPORTED_CONTENT.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes for a malformed message
 */
export function fromResponses(items: ResponsesItemLike | readonly ResponsesItemLike[]): MessageInput[] {
  const list = listOf(items, "fromResponses(items)");
  const out: MessageInput[] = [];
  list.forEach((value, i) => {
    const where = Array.isArray(items) ? `fromResponses(items)[${i}]` : "fromResponses(item)";
    const item = objectAt(value, where);
    const type = item.type ?? (item.role !== undefined ? "message" : undefined);
    if (type === "message") {
      const role = item.role === "developer" ? "system" : item.role;
      if (role !== "system" && role !== "user" && role !== "assistant") {
        throw new CtxloomError("INVALID_ROLE", `${where}.role must be system, developer, user or assistant; got ${describe(item.role)}.`);
      }
      out.push({ role, content: textOf(item.content, `${where}.content`) });
    } else if (type === "function_call") {
      const call = {
        id: stringAt(item.call_id, `${where}.call_id`),
        type: "function" as const,
        function: { name: stringAt(item.name, `${where}.name`), arguments: stringAt(item.arguments, `${where}.arguments`) },
      };
      const last = out[out.length - 1];
      if (last && last.role === "assistant") (last.toolCalls ??= []).push(call);
      else out.push({ role: "assistant", content: "", toolCalls: [call] });
    } else if (type === "function_call_output") {
      out.push({ role: "tool", toolCallId: stringAt(item.call_id, `${where}.call_id`), content: textOf(item.output, `${where}.output`) });
    } else if (type === "reasoning") {
      unsupported(where, "a reasoning item", "leave reasoning items out of the chat (or use `store: true` and previous_response_id for them).");
    } else {
      unsupported(where, `an item of type ${describe(type)}`, "send it in the request yourself, or describe it in text.");
    }
  });
  return checked(out);
}

function textOf(content: unknown, where: string): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new CtxloomError("INVALID_CONTENT", `${where} must be a string or a list of parts; got ${describe(content)}.`);
  return content
    .map((value: unknown, i) => {
      const p = objectAt(value, `${where}[${i}]`);
      if (p.type === "output_text" || p.type === "input_text") return stringAt(p.text, `${where}[${i}].text`);
      if (p.type === "refusal") return stringAt(p.refusal, `${where}[${i}].refusal`);
      return unsupported(`${where}[${i}]`, `a part of type ${describe(p.type)}`, "send it in the request yourself, or describe it in text.");
    })
    .join("");
}
