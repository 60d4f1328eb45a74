// geminiCounter: Gemini's own count of a request (the Gemini API's models.countTokens), for
// `buildContext({ providerCounter })` and `openAILoop`. No Gemini SDK is loaded: the app hands a
// fetch over, and the request is made here, in the REST API's shape:
//
//   POST {baseURL}/models/{model}:countTokens
//        (baseURL default https://generativelanguage.googleapis.com/v1beta)
//   x-goog-api-key: {apiKey}                           (when given; else the app's fetch authorizes)
//   { "generateContentRequest": { "model": "models/{model}", "contents": [...],
//                                 "systemInstruction"?: { "parts": [...] },
//                                 "tools"?: [{ "functionDeclarations": [...] }] } }
//   -> { "totalTokens": 1234, ... }
//
// The context is built in the OpenAI format (as the AI SDK and Gemini's OpenAI-compatible endpoint
// take it) and sent as Gemini's contents: system messages as the system instruction, assistant
// messages as "model" turns (tool calls as functionCall parts), tool results as functionResponse
// parts of a "user" turn, images and files as inline data (a data: URL) or file data (a URL).
import { counterOptions, type ProviderCounterOptions } from "../context/provider-counter.js";
import type { OpenAIContentPart } from "../context/parts-format.js";
import type { OpenAIMessage } from "../context/format.js";
import type { ProviderCounter } from "../context/types.js";
import { CtxloomError, describe } from "../errors.js";
import { checkTools, type ToolsInput } from "../tokens/tools.js";

/** A fetch as `geminiCounter` calls it: `globalThis.fetch`, or the app's own (a proxy, its authorization). */
export type GeminiFetchLike = (
  url: string,
  init: { method: "POST"; headers: Record<string, string>; body: string; signal: AbortSignal },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** Options of `geminiCounter`: the counter's, and where and how the API is reached. */
export interface GeminiCounterOptions extends ProviderCounterOptions {
  /** The Gemini API key, sent as `x-goog-api-key`; leave it out when the fetch authorizes the request itself. */
  apiKey?: string;
  /**
   * The API's root, to which `/models/{model}:countTokens` is added. @default
   * "https://generativelanguage.googleapis.com/v1beta"
   */
  baseURL?: string;
}

const BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

type GeminiPart = Record<string, unknown>;
interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

/**
 * A counter (`buildContext({ providerCounter })`, `openAILoop(chat, { providerCounter })`) that asks
 * the Gemini API for the count of a request built in the OpenAI format: one POST to
 * `models/{model}:countTokens` (the request shape above), aborted through its signal after
 * `timeoutMs`. A count refused or slow leaves the build on its calibrated estimate.
 * @throws INVALID_ARGUMENT (not a function; bad or unknown options)
 */
export function geminiCounter(fetch: GeminiFetchLike, options?: GeminiCounterOptions): ProviderCounter {
  const what = "geminiCounter(fetch, options)";
  if (typeof fetch !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} takes a fetch function (globalThis.fetch, or your own that authorizes the request); got ` +
        `${describe(fetch)}.`,
    );
  }
  const { margin, timeoutMs, model } = counterOptions(options, what, ["apiKey", "baseURL"]);
  const { apiKey, baseURL } = (options ?? {}) as GeminiCounterOptions;
  if (apiKey !== undefined && (typeof apiKey !== "string" || apiKey.length === 0)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what}.apiKey must be a Gemini API key; got ${describe(apiKey)}.`);
  }
  if (baseURL !== undefined && (typeof baseURL !== "string" || !/^https?:\/\//.test(baseURL))) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what}.baseURL must be an http(s) URL; got ${describe(baseURL)}.`);
  }
  const root = (baseURL ?? BASE_URL).replace(/\/+$/, "");
  const headers: Record<string, string> = {
    "content-type": "application/json",
    ...(apiKey ? { "x-goog-api-key": apiKey } : {}),
  };
  return {
    name: "gemini",
    format: "openai",
    margin,
    timeoutMs,
    count: async ({ model: built, context, tools, signal }) => {
      const name = (model ?? built).replace(/^models\//, "");
      const request = { model: `models/${name}`, ...geminiRequest(context.messages as OpenAIMessage[], tools) };
      const body = JSON.stringify({ generateContentRequest: request });
      const response = await fetch(`${root}/models/${encodeURIComponent(name)}:countTokens`, {
        method: "POST",
        headers,
        body,
        signal,
      });
      const answer = (await response.json().catch(() => null)) as {
        totalTokens?: unknown;
        error?: { message?: unknown };
      } | null;
      if (!response.ok) {
        const why = typeof answer?.error?.message === "string" ? `: ${answer.error.message}` : "";
        throw new Error(`Gemini's countTokens answered ${response.status}${why}`);
      }
      return answer?.totalTokens as number;
    },
  };
}

/** An OpenAI-format request as Gemini's `contents`, `systemInstruction` and `tools`. */
export function geminiRequest(
  messages: readonly OpenAIMessage[],
  tools: ToolsInput | undefined,
): Record<string, unknown> {
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const calls = new Map<string, string>(); // call id -> function name (a functionResponse names its function)
  for (const m of messages) {
    if (m.role === "system") {
      system.push({ text: m.content });
    } else if (m.role === "user") {
      contents.push({
        role: "user",
        parts: typeof m.content === "string" ? [{ text: m.content }] : m.content.map(userPart),
      });
    } else if (m.role === "assistant") {
      const parts: GeminiPart[] = m.content.length > 0 ? [{ text: m.content }] : [];
      for (const call of m.tool_calls ?? []) {
        calls.set(call.id, call.function.name);
        parts.push({ functionCall: { name: call.function.name, args: argsOf(call.function.arguments) } });
      }
      if (parts.length > 0) contents.push({ role: "model", parts });
    } else {
      const part = {
        functionResponse: { name: calls.get(m.tool_call_id) ?? m.name ?? "tool", response: { content: m.content } },
      };
      const last = contents.at(-1);
      // The results of one turn's calls go together, in one user turn.
      if (last?.role === "user" && last.parts.every((p) => "functionResponse" in p)) last.parts.push(part);
      else contents.push({ role: "user", parts: [part] });
    }
  }
  const declarations =
    tools === undefined
      ? []
      : checkTools(tools).tools.map((t) => ({
          name: t.name,
          ...(t.description.length > 0 ? { description: t.description } : {}),
          ...(isEmptySchema(t.parameters) ? {} : { parameters: schemaOf(t.parameters) }),
        }));
  return {
    contents,
    ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}),
    ...(declarations.length > 0 ? { tools: [{ functionDeclarations: declarations }] } : {}),
  };
}

function userPart(p: OpenAIContentPart): GeminiPart {
  if (p.type === "text") return { text: p.text };
  const url = p.type === "image_url" ? p.image_url.url : p.file.file_data;
  const data = /^data:([^;,]+)(?:;[^,]*)?,(.*)$/s.exec(url);
  if (data) return { inlineData: { mimeType: data[1], data: data[2] } };
  return { fileData: { fileUri: url, mimeType: mimeOf(url) } };
}

const MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
};
const mimeOf = (url: string) => MIME[/\.(\w+)(?:[?#].*)?$/.exec(url)?.[1]?.toLowerCase() ?? ""] ?? "image/jpeg";

/** A call's arguments as Gemini's `args` object (arguments not a JSON object: under "arguments"). */
function argsOf(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // sent as text below
  }
  return { arguments: text };
}

const isEmptySchema = (s: unknown) => s === null || typeof s !== "object" || Object.keys(s).length === 0;

/**
 * Gemini's Schema takes a subset of JSON schema: the keys it does not know are left out (the AI SDK's Google provider
 * does the same).
 */
const SCHEMA_KEYS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "properties",
  "required",
  "items",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "anyOf",
  "default",
  "propertyOrdering",
  "example",
]);

function schemaOf(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(schemaOf);
  if (s === null || typeof s !== "object") return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s as Record<string, unknown>)) {
    if (!SCHEMA_KEYS.has(k)) continue;
    if (k === "properties" && v !== null && typeof v === "object") {
      out[k] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([name, p]) => [name, schemaOf(p)]));
    } else out[k] = k === "items" || k === "anyOf" ? schemaOf(v) : v;
  }
  return out;
}
