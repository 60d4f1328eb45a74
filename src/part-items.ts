// The items providers send that a chat keeps as they came (OpenAI's reasoning and compaction
// items, Anthropic's compaction blocks), as JSON text: their checks. Part of the base room.
import { CtxloomError, describe } from "./errors.js";

/** A well-formed string (no lone surrogate), or INVALID_CONTENT naming `what`. */
type TextCheck = (value: unknown, what: string) => string;

const bad = (message: string): CtxloomError => new CtxloomError("INVALID_CONTENT", message);

/** What is wrong with a provider's item (a JSON object), or null. */
export type ItemProblem = (item: Record<string, unknown>) => string | null;

/** `value`, JSON text of an object as a provider sent it, checked by `problem`. @throws INVALID_CONTENT */
export function providerJson(value: unknown, at: string, text: TextCheck, problem: ItemProblem): string {
  if (typeof value !== "string")
    throw bad(`${at} must be the provider's item as JSON text (JSON.stringify(item)); got ${describe(value)}.`);
  let item: unknown;
  try {
    item = JSON.parse(text(value, at));
  } catch (error) {
    if (error instanceof CtxloomError) throw error;
    throw bad(`${at} is not JSON text; pass JSON.stringify(item) of the item the provider sent.`);
  }
  const object = item !== null && typeof item === "object" && !Array.isArray(item);
  const why = object ? problem(item as Record<string, unknown>) : "it is not a JSON object";
  if (why !== null) throw bad(`${at} is not what the provider sends: ${why}. Keep the item as the provider sent it.`);
  return value;
}

/** True for a list of `{ type, text }` objects of this type. */
function isTextList(v: unknown, type: string): boolean {
  if (!Array.isArray(v)) return false;
  return v.every(
    (x) =>
      x !== null &&
      typeof x === "object" &&
      (x as Record<string, unknown>).type === type &&
      typeof (x as Record<string, unknown>).text === "string",
  );
}
const optionalString = (v: unknown): boolean => v === undefined || v === null || typeof v === "string";

/**
 * OpenAI's ResponseReasoningItem: `{ type: "reasoning", id, summary: [{ type: "summary_text", text }],
 * encrypted_content?, content?, status? }`.
 */
export function reasoningItemProblem(o: Record<string, unknown>): string | null {
  if (o.type !== "reasoning") return `its type ${describe(o.type)} is not "reasoning"`;
  if (typeof o.id !== "string" || o.id.length === 0) return "it has no id";
  if (!isTextList(o.summary, "summary_text")) return 'its summary is not a list of { type: "summary_text", text }';
  if (o.content !== undefined && !isTextList(o.content, "reasoning_text"))
    return 'its content is not a list of { type: "reasoning_text", text }';
  if (!optionalString(o.encrypted_content)) return "its encrypted_content is not a string";
  return null;
}

/** OpenAI's compaction item: `{ type: "compaction", encrypted_content, id? }`. */
export function openAICompactionProblem(o: Record<string, unknown>): string | null {
  if (o.type !== "compaction") return `its type ${describe(o.type)} is not "compaction"`;
  if (typeof o.encrypted_content !== "string" || o.encrypted_content.length === 0) return "it has no encrypted_content";
  if (!optionalString(o.id)) return "its id is not a string";
  return null;
}

/** Anthropic's compaction block: `{ type: "compaction", content, encrypted_content, signature?, tool_changes? }`. */
export function anthropicCompactionProblem(o: Record<string, unknown>): string | null {
  if (o.type !== "compaction") return `its type ${describe(o.type)} is not "compaction"`;
  if (!optionalString(o.content) || !optionalString(o.encrypted_content) || !optionalString(o.signature)) {
    return "its content, encrypted_content or signature is not a string";
  }
  if (o.content === "") return "its content is empty (Anthropic refuses an empty summary)";
  if ("cache_control" in o) return "it has a cache_control (ctxloom marks breakpoints itself: cacheControl)";
  return null;
}
