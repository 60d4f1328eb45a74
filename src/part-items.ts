// The parts a provider sent that a chat keeps as they came (parts.ts holds the others): reasoning
// with Anthropic's signature or OpenAI's item, redacted reasoning, compactions; their shapes and
// checks, and those of the items they hold as JSON text (OpenAI's reasoning and compaction items,
// Anthropic's compaction blocks). Part of the base room.
import { CtxloomError, describe } from "./errors.js";

/**
 * A model's reasoning (Anthropic's `thinking` block, the AI SDK's reasoning part, OpenAI's
 * Responses reasoning item), with Anthropic's signature or OpenAI's item when it has one.
 */
export interface ReasoningPart {
  /** Always "reasoning". */
  type: "reasoning";
  /** The reasoning's text (an OpenAI item's: its summary, the summary texts joined with a blank line). */
  text: string;
  /** Anthropic's signature of a thinking block, sent back with it. */
  signature?: string;
  /**
   * An OpenAI Responses reasoning item as the provider sent it (id, summary, encrypted_content
   * and any other field), as JSON text: sent back, as it is, in the Responses format only.
   */
  item?: string;
}

/** Reasoning the provider sent encrypted (Anthropic's `redacted_thinking` block): sent back as it came. */
export interface RedactedReasoningPart {
  /** Always "redacted-reasoning". */
  type: "redacted-reasoning";
  /** The encrypted reasoning, as the provider sent it. */
  data: string;
}

/** The providers whose compactions a chat keeps. */
export type CompactionProvider = "openai" | "anthropic";

/**
 * A compaction a provider made (OpenAI's Responses `compaction` item, Anthropic's `compaction`
 * block): the provider's own summary of everything before it in the conversation, kept as it
 * came and sent back only to that provider, in its format. Other formats never carry it: there
 * the messages before it are sent (or the chat's own summary of them), as the budget allows.
 */
export interface CompactionPart {
  /** Always "compaction". */
  type: "compaction";
  /** Who made it: "openai" (sent in the Responses format) or "anthropic" (sent in the Anthropic format). */
  provider: CompactionProvider;
  /** The item or block as the provider sent it, as JSON text. */
  data: string;
}

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

/** Content part `at`, of type "reasoning", checked and copied. @throws INVALID_CONTENT */
export function checkReasoningPart(p: Record<string, unknown>, at: string, text: TextCheck): ReasoningPart {
  const out: ReasoningPart = { type: "reasoning", text: text(p.text, `${at}.text`) };
  if (p.signature !== undefined) {
    if (typeof p.signature !== "string" || p.signature.length === 0)
      throw bad(`${at}.signature must be a non-empty string when given; got ${describe(p.signature)}.`);
    out.signature = text(p.signature, `${at}.signature`);
  }
  if (p.item !== undefined) {
    if (out.signature !== undefined)
      throw bad(`${at} has both a signature (Anthropic's) and an item (OpenAI's); keep the one its provider sent.`);
    out.item = providerJson(p.item, `${at}.item`, text, reasoningItemProblem);
  }
  if (out.text.length === 0 && out.signature === undefined && out.item === undefined) {
    throw bad(`${at} has neither text nor a signature; leave the part out.`);
  }
  return out;
}

/** Content part `at`, of type "redacted-reasoning", checked and copied. @throws INVALID_CONTENT */
export function checkRedactedReasoningPart(
  p: Record<string, unknown>,
  at: string,
  text: TextCheck,
): RedactedReasoningPart {
  if (typeof p.data !== "string" || p.data.length === 0)
    throw bad(`${at}.data must be the non-empty string the provider sent; got ${describe(p.data)}.`);
  return { type: "redacted-reasoning", data: text(p.data, `${at}.data`) };
}

/** Content part `at`, of type "compaction", checked and copied. @throws INVALID_CONTENT */
export function checkCompactionPart(p: Record<string, unknown>, at: string, text: TextCheck): CompactionPart {
  if (p.provider !== "openai" && p.provider !== "anthropic") {
    throw bad(`${at}.provider must be "openai" or "anthropic" (who made the compaction); got ${describe(p.provider)}.`);
  }
  const problem = p.provider === "openai" ? openAICompactionProblem : anthropicCompactionProblem;
  return { type: "compaction", provider: p.provider, data: providerJson(p.data, `${at}.data`, text, problem) };
}
