// OpenAI's Responses API items to chat messages: a response's `output`, or input items.
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart, MessageInput } from "../message.js";
import { checked, contentOf, convertEach, dataUrlType, fromOptions, objectAt, stringAt, unsupported, type FromOptions } from "./common.js";

/** An item of the Responses API (a response's `output` item or a `ResponseInputItem`), structurally. */
export interface ResponseItemLike {
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
 * and refusal parts joined; input_image and input_file parts kept as image and file parts;
 * "developer" becomes "system"), function_call items join the
 * assistant message just before them as `toolCalls` (or start one with empty content),
 * a function_call_output becomes a tool message (with its images as image parts). Reasoning
 * items (OpenAI's own, encrypted, sent back by id) cannot be kept: they are left out with
 * `{ reasoning: "drop" }`, else refused with UNSUPPORTED_CONTENT, as are uploaded file ids
 * and built-in tools.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes for a malformed message
 */
export function fromResponseItems(items: ResponseItemLike | readonly ResponseItemLike[], options?: FromOptions): MessageInput[] {
  const { reasoning } = fromOptions(options, "fromResponseItems");
  const out: MessageInput[] = [];
  convertEach(items, "fromResponseItems", (value, where) => {
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
      const output = textOf(item.output, `${where}.output`);
      if (typeof output !== "string" && output.some((p) => p.type === "file")) unsupported(`${where}.output`, "a tool output with files", "a tool result carries text and images only; return the files' content as text.");
      out.push({ role: "tool", toolCallId: stringAt(item.call_id, `${where}.call_id`), content: output });
    } else if (type === "reasoning") {
      if (reasoning !== "drop") unsupported(where, "a reasoning item (OpenAI's encrypted reasoning)", 'pass { reasoning: "drop" } to leave it out (or use `store: true` and previous_response_id for it).');
    } else {
      unsupported(where, `an item of type ${describe(type)}`, "send it in the request yourself, or describe it in text.");
    }
    return [];
  }, "item");
  return checked(out);
}

function textOf(content: unknown, where: string): string | ContentPart[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) throw new CtxloomError("INVALID_CONTENT", `${where} must be a string or a list of parts; got ${describe(content)}.`);
  const parts = content.map((value: unknown, i): ContentPart => {
    const at = `${where}[${i}]`;
    const p = objectAt(value, at);
    if (p.type === "output_text" || p.type === "input_text") return { type: "text", text: stringAt(p.text, `${at}.text`) };
    if (p.type === "refusal") return { type: "text", text: stringAt(p.refusal, `${at}.refusal`) };
    if (p.type === "input_image" && typeof p.image_url === "string") {
      const out: ContentPart = { type: "image", image: p.image_url };
      if (p.detail === "low" || p.detail === "high" || p.detail === "auto") out.detail = p.detail;
      return out;
    }
    if (p.type === "input_file" && (typeof p.file_data === "string" || typeof p.file_url === "string")) {
      const data = typeof p.file_data === "string" ? p.file_data : (p.file_url as string);
      // The Responses API reads PDFs: bytes or a URL without a stated type are a PDF.
      const out: ContentPart = { type: "file", data, mediaType: dataUrlType(data) ?? "application/pdf" };
      if (typeof p.filename === "string" && p.filename.length > 0) out.filename = p.filename;
      return out;
    }
    if (p.type === "input_image" || p.type === "input_file") return unsupported(at, `an ${p.type} by upload id`, "pass its bytes or URL to keep it in the chat.");
    return unsupported(at, `a part of type ${describe(p.type)}`, "send it in the request yourself, or describe it in text.");
  });
  return contentOf(parts, "");
}
