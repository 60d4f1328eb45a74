import type { ToolCall } from "../message.js";
import { asRecord, importError, str } from "./types.js";

/** Counts a placeholder of `kind` and returns its text. */
export function placeholder(counts: Record<string, number>, kind: string): string {
  counts[kind] = (counts[kind] ?? 0) + 1;
  return `[${kind}]`;
}

/**
 * Text of an OpenAI-style content value: a string, null, or an array of parts
 * (`{ type: "text", text }`, images, audio, files...). Parts that are not text become a
 * placeholder such as "[image]", counted in `counts`.
 */
export function partsText(content: unknown, counts: Record<string, number>, where: string): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  if (!Array.isArray(content))
    throw importError(where, `content must be a string or an array of parts; got ${typeof content}`);
  const out: string[] = [];
  for (const part of content) {
    if (typeof part === "string") {
      out.push(part);
      continue;
    }
    const p = asRecord(part);
    const type = str(p?.type) ?? "unknown";
    const text = typeof p?.text === "string" ? p.text : asRecord(p?.text)?.value;
    if (typeof text === "string") out.push(text);
    else if (type === "think") continue;
    else if (type.includes("image")) out.push(placeholder(counts, "image"));
    else if (type.includes("audio")) out.push(placeholder(counts, "audio"));
    else if (type.includes("file")) out.push(placeholder(counts, "file"));
    else out.push(placeholder(counts, type));
  }
  return out.join("\n");
}

/** OpenAI `tool_calls` checked and copied; throws IMPORT_FAILED naming the bad call. */
export function toolCallsOf(value: unknown, where: string): ToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw importError(where, "tool_calls must be an array");
  return value.map((c: unknown, i) => {
    const call = asRecord(c);
    const fn = asRecord(call?.function);
    const id = str(call?.id);
    const name = str(fn?.name);
    const args = fn?.arguments;
    if (!id || !name) throw importError(where, `tool_calls[${i}] needs an id and a function name`);
    return {
      id,
      type: "function",
      function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) },
    };
  });
}
