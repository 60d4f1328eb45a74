// Counting for a model: its profile decides the counter (its own, the exact encoding, or the
// tokens-per-character estimate). Models sit above tokens: this file joins the two.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import {
  REPLY_PRIMING,
  heuristicCounter,
  imageRuleFor,
  isOpenEncoding,
  loadExactCounter,
  loadedEncoding,
  loadedWasmCounter,
  messageTokens,
  registeredEncoding,
  type CountableMessage,
  type TokenCounter,
} from "../tokens/index.js";
import type { ContentPart } from "../parts.js";

/**
 * A message countTokens takes: ctxloom's (content a string, or a list of ctxloom parts) or
 * OpenAI's (snake_case fields; content null, a string or Chat Completions parts).
 */
export type CountableInput = Omit<CountableMessage, "content"> & { content?: string | null | readonly object[] };
import { getModelProfile } from "./profiles.js";
import type { ModelRef } from "./types.js";

/** How a Loom counts: "exact" where the model's encoding is known (default), or always the heuristic. */
export type CounterMode = "exact" | "heuristic";

/**
 * The counter for a model, loading its exact encoding first if needed (the WebAssembly counter, else gpt-tokenizer).
 */
export async function counterFor(model: ModelRef, mode: CounterMode = "exact"): Promise<TokenCounter> {
  const profile = getModelProfile(model);
  if (profile.counter) return profile.counter;
  if (mode === "exact" && profile.encoding) {
    if (!isOpenEncoding(profile.encoding)) return loadExactCounter(profile.encoding);
    const registered = registeredEncoding(profile.encoding);
    if (registered) return registered;
  }
  return heuristicCounter(profile.tokensPerChar);
}

/** Loads the exact tokenizer of a model (if it has one), so that `countTokens` can count it synchronously. */
export async function loadTokenizer(model: ModelRef): Promise<TokenCounter> {
  getModelProfile(model); // a bad model is refused here, before anything loads
  return counterFor(model);
}

/**
 * Tokens a list of chat messages costs in a request, by the OpenAI cookbook's rules (3 a
 * message, 1 more for a name, 3 for the reply primer), with the model's own encoding
 * where it is known and the profile's tokens-per-character estimate otherwise.
 * @throws UNKNOWN_MODEL; INVALID_ARGUMENT for malformed messages; COUNTER_NOT_LOADED when the
 *   model's exact encoding is not loaded yet (`await loadTokenizer(model)` once first)
 */
export function countTokens(messages: readonly CountableInput[], options: { model: ModelRef }): number {
  if (!Array.isArray(messages)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `countTokens takes an array of messages { role, content, name? }; got ${describe(messages)}.`,
    );
  }
  const o = checkOptions<{ model: ModelRef }>(options, "countTokens(messages, options)", ["model"]);
  if (o.model === undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `countTokens needs { model }, e.g. countTokens(messages, { model: "gpt-4o" }).`,
    );
  }
  const profile = getModelProfile(o.model);
  let counter = profile.counter;
  if (!counter && isOpenEncoding(profile.encoding)) counter = registeredEncoding(profile.encoding);
  else if (!counter && profile.encoding && !isOpenEncoding(profile.encoding)) {
    counter = loadedWasmCounter(profile.encoding) ?? loadedEncoding(profile.encoding);
    if (!counter) {
      throw new CtxloomError(
        "COUNTER_NOT_LOADED",
        `The ${profile.encoding} tokenizer of ${profile.name} loads lazily (about 20 ms; 0.3 s where it falls back ` +
          `to gpt-tokenizer); ` +
          `call \`await loadTokenizer(${JSON.stringify(profile.name)})\` once before counting.`,
      );
    }
  }
  counter ??= heuristicCounter(profile.tokensPerChar);
  let total = REPLY_PRIMING;
  const images = imageRuleFor(profile.name);
  messages.forEach((m, i) => (total += messageTokens(counter, toCountable(m, i), images)));
  return total;
}

/** A checked copy of messages[i], in ctxloom's camelCase or OpenAI's snake_case. @throws INVALID_ARGUMENT */
function toCountable(
  m: CountableInput & { tool_calls?: unknown; tool_call_id?: unknown },
  i: number,
): CountableMessage {
  const bad = (what: string, value: unknown): never => {
    throw new CtxloomError("INVALID_ARGUMENT", `messages[${i}]${what} must be a string; got ${describe(value)}.`);
  };
  if (m === null || typeof m !== "object") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `messages[${i}] must be { role, content, name?, tool_calls?, tool_call_id? }; got ${describe(m)}.`,
    );
  }
  if (typeof m.role !== "string") bad(".role", m.role);
  let content = m.content ?? "";
  let parts: ContentPart[] | undefined;
  if (Array.isArray(content)) {
    parts = content.map((p: unknown, j) => countablePart(p, `messages[${i}].content[${j}]`));
    content = parts
      .filter((p) => p.type === "text")
      .map((p) => (p as { text: string }).text)
      .join("\n");
  }
  if (typeof content !== "string") bad(".content (or a list of parts)", m.content);
  const out: CountableMessage = { role: m.role, content: content as string };
  if (parts) out.parts = parts;
  if (m.name !== undefined) out.name = typeof m.name === "string" ? m.name : bad(".name", m.name);
  const callId = m.toolCallId ?? m.tool_call_id;
  if (callId !== undefined) out.toolCallId = typeof callId === "string" ? callId : bad(".tool_call_id", callId);
  const calls = m.toolCalls ?? m.tool_calls;
  if (calls !== undefined) {
    if (!Array.isArray(calls)) bad(".tool_calls (an array)", calls);
    out.toolCalls = (calls as unknown[]).map((call, j) => {
      const c = (call ?? {}) as { id?: unknown; type?: unknown; function?: { name?: unknown; arguments?: unknown } };
      const field = (path: string, value: unknown): string =>
        typeof value === "string" ? value : bad(`.tool_calls[${j}]${path}`, value);
      return {
        id: field(".id", c.id),
        type: field(".type", c.type),
        function: {
          name: field(".function.name", c.function?.name),
          arguments: field(".function.arguments", c.function?.arguments),
        },
      };
    });
  }
  return out;
}

/** A part to count: ctxloom's, or a Chat Completions text, image_url or file part (only what the estimate reads). */
function countablePart(value: unknown, where: string): ContentPart {
  const p = (value ?? {}) as Record<string, unknown>;
  const str = (v: unknown, what: string): string => {
    if (typeof v !== "string")
      throw new CtxloomError("INVALID_ARGUMENT", `${where}${what} must be a string; got ${describe(v)}.`);
    return v;
  };
  const size = (v: unknown): number | undefined =>
    Number.isInteger(v) && (v as number) > 0 ? (v as number) : undefined;
  switch (p.type) {
    case "text":
      return { type: "text", text: str(p.text, ".text") };
    case "image_url": {
      const img = (p.image_url ?? {}) as { url?: unknown; detail?: unknown };
      const detail = img.detail === "low" || img.detail === "high" ? img.detail : "auto";
      return { type: "image", image: str(img.url, ".image_url.url"), detail };
    }
    case "image": {
      const detail = p.detail === "low" || p.detail === "high" ? p.detail : "auto";
      const w = size(p.width);
      const h = size(p.height);
      return w && h ? { type: "image", image: "", detail, width: w, height: h } : { type: "image", image: "", detail };
    }
    case "file": {
      const data =
        p.file !== null && typeof p.file === "object" ? (p.file as { file_data?: unknown }).file_data : p.data;
      return {
        type: "file",
        data: str(data, p.file ? ".file.file_data" : ".data"),
        mediaType: "application/octet-stream",
      };
    }
    case "reasoning":
      return p.item === undefined
        ? { type: "reasoning", text: str(p.text, ".text") }
        : { type: "reasoning", text: "", item: str(p.item, ".item") };
    case "redacted-reasoning":
      return { type: "redacted-reasoning", data: str(p.data, ".data") };
    case "compaction":
      return { type: "compaction", provider: "openai", data: str(p.data, ".data") };
    default:
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} is a part of type ${describe(p.type)}; countTokens counts text, image, image_url, file, reasoning ` +
          `and compaction parts.`,
      );
  }
}
