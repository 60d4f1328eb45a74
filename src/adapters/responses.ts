// OpenAI's Responses API items to chat messages: a response's `output`, or input items.
import { CtxloomError, describe } from "../errors.js";
import type { ContentPart, MessageInput } from "../message.js";
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

/** An item of the Responses API (a response's `output` item or a `ResponseInputItem`), structurally. */
export interface ResponsesItemLike {
  /**
   * The item's type ("message", "function_call", "function_call_output", "reasoning", ...); a message may leave it out.
   */
  type?: string | null;
  /** A message's role. */
  role?: unknown;
  /** A message's content: text, or content parts. */
  content?: unknown;
  /** A function call's id, or the id of the call a function_call_output answers. */
  call_id?: unknown;
  /** A function call's function name. */
  name?: unknown;
  /** A function call's arguments as JSON text. */
  arguments?: unknown;
  /** A function_call_output's result. */
  output?: unknown;
}

/**
 * Converts Responses API items (a response's `output`, or input items; one or a list) to
 * inputs for `chat.append`: a message item becomes a message (its output_text, input_text
 * and refusal parts joined; input_image and input_file parts kept as image and file parts;
 * "developer" becomes "system"), function_call items join the assistant message just before
 * them as `toolCalls` (or start one with empty content), a function_call_output becomes a tool
 * message (with its images as image parts). A reasoning item becomes a reasoning part of the
 * assistant message it goes with (the next message or function call: its summary as text, the
 * item itself as `item`, sent back as it came in the Responses format only), or is left out
 * (`{ reasoning: "drop" }`) or refused (`{ reasoning: "refuse" }`). A compaction item (server-side
 * compaction, `context_management`, or `responses.compact`: append only its compaction item,
 * the user messages before it are the chat's own) becomes a compaction part of that assistant
 * message (an assistant message of its own when none follows): sent back as it came, in the
 * Responses format only, where it stands for everything before it. Uploaded file ids and
 * built-in tools are refused with UNSUPPORTED_CONTENT.
 * @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT, and append's own codes for a malformed message
 */
export function fromResponseItems(
  items: ResponsesItemLike | readonly ResponsesItemLike[],
  options?: FromOptions,
): MessageInput[] {
  const { reasoning } = fromOptions(options, "fromResponseItems");
  const out: MessageInput[] = [];
  // Reasoning and compaction items go with the item after them: kept here until it comes.
  let pending: ContentPart[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ role: "assistant", content: pending });
    pending = [];
  };
  convertEach(
    items,
    "fromResponseItems",
    (value, where) => {
      const item = objectAt(value, where);
      const type = item.type ?? (item.role !== undefined ? "message" : undefined);
      if (type === "message") {
        const role = item.role === "developer" ? "system" : item.role;
        if (role !== "system" && role !== "user" && role !== "assistant") {
          throw new CtxloomError(
            "INVALID_ROLE",
            `${where}.role must be system, developer, user or assistant; got ${describe(item.role)}.`,
          );
        }
        const content = textOf(item.content, `${where}.content`);
        if (role === "assistant" && pending.length > 0) {
          out.push({ role, content: [...pending, ...asParts(content)] });
          pending = [];
        } else {
          flush();
          out.push({ role, content });
        }
      } else if (type === "function_call") {
        const call = {
          id: stringAt(item.call_id, `${where}.call_id`),
          type: "function" as const,
          function: {
            name: stringAt(item.name, `${where}.name`),
            arguments: stringAt(item.arguments, `${where}.arguments`),
          },
        };
        const last = out[out.length - 1];
        if (last && last.role === "assistant") {
          if (pending.length > 0) last.content = [...asParts(last.content), ...pending];
          pending = [];
          (last.toolCalls ??= []).push(call);
        } else {
          out.push({ role: "assistant", content: pending.length > 0 ? pending : "", toolCalls: [call] });
          pending = [];
        }
      } else if (type === "function_call_output") {
        flush();
        const output = textOf(item.output, `${where}.output`);
        if (typeof output !== "string" && output.some((p) => p.type === "file"))
          unsupported(
            `${where}.output`,
            "a tool output with files",
            "a tool result carries text and images only; return the files' content as text.",
          );
        out.push({ role: "tool", toolCallId: stringAt(item.call_id, `${where}.call_id`), content: output });
      } else if (type === "reasoning") {
        if (reasoning === "refuse")
          unsupported(where, "a reasoning item", 'pass { reasoning: "keep" } or { reasoning: "drop" }.');
        if (reasoning === "keep")
          pending.push({ type: "reasoning", text: summaryOf(item, where), item: JSON.stringify(item) });
      } else if (type === "compaction") {
        pending.push({ type: "compaction", provider: "openai", data: JSON.stringify(item) });
      } else {
        unsupported(
          where,
          `an item of type ${describe(type)}`,
          "send it in the request yourself, or describe it in text.",
        );
      }
      return [];
    },
    "item",
  );
  flush();
  return checked(out);
}

/** A reasoning item's summary texts, joined with a blank line ("" without a summary). */
function summaryOf(item: Record<string, unknown>, where: string): string {
  if (!Array.isArray(item.summary)) {
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${where}.summary must be a list of { type: "summary_text", text }; got ${describe(item.summary)}.`,
    );
  }
  return item.summary
    .map((s: unknown, i) => stringAt(objectAt(s, `${where}.summary[${i}]`).text, `${where}.summary[${i}].text`))
    .join("\n\n");
}

/** A content as a list of parts (an empty text: none). */
function asParts(content: string | ContentPart[]): ContentPart[] {
  if (typeof content !== "string") return content;
  return content.length > 0 ? [{ type: "text", text: content }] : [];
}

function textOf(content: unknown, where: string): string | ContentPart[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content))
    throw new CtxloomError(
      "INVALID_CONTENT",
      `${where} must be a string or a list of parts; got ${describe(content)}.`,
    );
  const parts = content.map((value: unknown, i): ContentPart => {
    const at = `${where}[${i}]`;
    const p = objectAt(value, at);
    if (p.type === "output_text" || p.type === "input_text")
      return { type: "text", text: stringAt(p.text, `${at}.text`) };
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
    if (p.type === "input_image" || p.type === "input_file")
      return unsupported(at, `an ${p.type} by upload id`, "pass its bytes or URL to keep it in the chat.");
    return unsupported(
      at,
      `a part of type ${describe(p.type)}`,
      "send it in the request yourself, or describe it in text.",
    );
  });
  return contentOf(parts, "");
}
