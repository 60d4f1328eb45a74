// Models the catalog lacks, read by their family: a new name of a known family (claude-*,
// gpt-*, o*, gemini-*, grok-*, llama-*, qwen*, mistral-*, deepseek-*) takes the profile of a
// documented member, and a name of no known family takes its provider's default when a
// provider prefix names one (anthropic/..., an AI SDK model's provider). The member chosen is
// the one whose window fits the family's newest models at the least: a name read too small
// wastes some window, a name read too large sends requests the provider refuses.
import type { ModelProfile } from "./types.js";

/** Bedrock's provider prefix, with its optional cross-region one: "us.anthropic.claude-...". */
export const BEDROCK =
  /^(?:(?:us|eu|apac|global|us-gov)\.)?(?:anthropic|meta|mistral|deepseek|qwen|openai|amazon|cohere|ai21|writer|xai)\./;

/** An id without its provider prefix (openai/, google/, Bedrock's anthropic.), as given. */
export function bareId(id: string): string {
  return id.slice(id.lastIndexOf("/") + 1).replace(BEDROCK, "");
}

/**
 * Families, first match wins: [the name's start, the catalog model whose profile it takes, the family as the warning
 * names it].
 */
const FAMILIES: readonly (readonly [RegExp, string, string])[] = [
  // OpenAI: the gpt-5 family's tiers, then the older families, then any other gpt-* as gpt-5.
  [/^gpt-5[\w.]*-chat/, "gpt-5-chat-latest", "gpt-5*-chat"],
  [/^gpt-5[\w.]*-pro/, "gpt-5-pro", "gpt-5*-pro"],
  [/^gpt-5[\w.]*-mini/, "gpt-5-mini", "gpt-5*-mini"],
  [/^gpt-5[\w.]*-nano/, "gpt-5-nano", "gpt-5*-nano"],
  [/^gpt-5[\w.]*-codex/, "gpt-5-codex", "gpt-5*-codex"],
  [/^gpt-4\.1/, "gpt-4.1", "gpt-4.1*"],
  [/^gpt-4\.5/, "gpt-4.5-preview", "gpt-4.5*"],
  [/^(?:chat)?gpt-4o/, "gpt-4o", "gpt-4o*"],
  [/^gpt-4-32k/, "gpt-4-32k", "gpt-4-32k*"],
  [/^gpt-4-(?:turbo|vision|\d{4}-preview)/, "gpt-4-turbo", "gpt-4-turbo*"],
  [/^gpt-4/, "gpt-4", "gpt-4*"],
  [/^gpt-3\.5/, "gpt-3.5-turbo", "gpt-3.5*"],
  [/^gpt-oss/, "gpt-oss-20b", "gpt-oss*"],
  [/^gpt-/, "gpt-5", "gpt-*"],
  [/^o1-(?:mini|preview)/, "o1-mini", "o1-mini*"],
  [/^o\d/, "o3", "o*"],
  // Anthropic: every Claude since 3 has at least 200K, the window of the 4.5 models.
  [/^claude-(?:[\w.-]*-)?opus/, "claude-opus-4-5", "claude-*opus*"],
  [/^claude-(?:[\w.-]*-)?haiku/, "claude-haiku-4-5", "claude-*haiku*"],
  [/^claude-/, "claude-sonnet-4-5", "claude-*"],
  // Google: 1,048,576 input tokens for every Gemini since 1.5 (1.5 Pro had 2M).
  [/^gemini-1\.5-pro/, "gemini-1.5-pro", "gemini-1.5-pro*"],
  [/^gemini-3/, "gemini-3-pro-preview", "gemini-3*"],
  [/^gemini-/, "gemini-2.5-flash", "gemini-*"],
  // xAI: the fast Grok 4s have 2M; Grok 3 131,072; any other 256,000.
  [/^grok-4[\w.-]*-fast/, "grok-4-fast", "grok-4*-fast"],
  [/^grok-3/, "grok-3", "grok-3*"],
  [/^grok-/, "grok-4", "grok-*"],
  // Meta: Llama 3.x and 4 (Llama 2's 4,096 has no documented profile here: it stays unknown).
  [/^llama-4-scout/, "llama-4-scout-17b-16e-instruct", "llama-4-scout*"],
  [/^llama-4/, "llama-4-maverick-17b-128e-instruct", "llama-4*"],
  [/^llama-3/, "llama-3.1-8b-instruct", "llama-3*"],
  // Qwen: 32,768 natively unless the name says a longer-context line.
  [/^qwen3-coder/, "qwen3-coder-480b-a35b-instruct", "qwen3-coder*"],
  [/^qwen3-[\w.-]*2507/, "qwen3-235b-a22b-instruct-2507", "qwen3-*2507"],
  [/^qwen2\.5-(?:[\w.]*-)?(?:7|14|32|72)b/, "qwen2.5-7b-instruct", "qwen2.5 (7B and up)"],
  [/^qwen/, "qwen3-8b", "qwen*"],
  // Mistral.
  [/^mistral-large/, "mistral-large", "mistral-large*"],
  [/^mistral-medium/, "mistral-medium", "mistral-medium*"],
  [/^(?:open-)?mistral-/, "mistral-small", "mistral-*"],
  [/^codestral/, "codestral", "codestral*"],
  [/^ministral/, "ministral-8b", "ministral*"],
  // DeepSeek.
  [/^deepseek-r1/, "deepseek-r1", "deepseek-r1*"],
  [/^deepseek-/, "deepseek-chat", "deepseek-*"],
];

/** A provider's default for names of no known family, by the words providers and gateways spell it with. */
const PROVIDERS: Readonly<Record<string, string>> = {
  openai: "gpt-4o",
  anthropic: "claude-sonnet-4-5",
  google: "gemini-2.5-flash",
  gemini: "gemini-2.5-flash",
  xai: "grok-4",
  "x-ai": "grok-4",
  mistral: "mistral-small",
  mistralai: "mistral-small",
  deepseek: "deepseek-chat",
  "deepseek-ai": "deepseek-chat",
  meta: "llama-3.1-8b-instruct",
  "meta-llama": "llama-3.1-8b-instruct",
  qwen: "qwen3-8b",
};
/** Hosts that serve a maker's models under their own names: their maker when no maker is named. */
const HOSTS: Readonly<Record<string, string>> = { azure: "openai", vertex: "google" };

/** How an unknown name was read: the catalog model it borrows from, and why. */
export interface Inference {
  /**
   * The name the profile keeps: the id without its provider prefix, lowercased; with the
   * provider's name in front when only the provider was recognized ("anthropic/my-model"), so
   * that the name alone reads the same again.
   */
  name: string;
  from: string;
  /** "the claude-* family" or "its provider (anthropic)". */
  reason: string;
}

/**
 * The catalog model an unknown id is read as, if any: by its family, else by its provider
 * (the id's prefix, "anthropic/x", or an AI SDK model's `provider`, "anthropic.messages").
 * A fine-tuned OpenAI id (ft:gpt-4o-mini:org::id) is read as its base model.
 */
export function inferFamily(id: string, provider?: string): Inference | undefined {
  const bare = bareId(id).toLowerCase();
  const tuned = /^ft:([^:]+):/.exec(bare);
  const name = tuned ? tuned[1]! : bare;
  for (const [start, from, family] of FAMILIES) {
    if (start.test(name)) return { name: bare, from, reason: `the ${family} family` };
  }
  const words = [...id.toLowerCase().split(/[/.:]/).slice(0, -1), ...(provider?.toLowerCase().split(/[./]/) ?? [])];
  const host = words.find((w) => Object.hasOwn(HOSTS, w));
  const maker = words.find((w) => Object.hasOwn(PROVIDERS, w)) ?? (host === undefined ? undefined : HOSTS[host]);
  return maker ? { name: `${maker}/${bare}`, from: PROVIDERS[maker]!, reason: `its provider (${maker})` } : undefined;
}

/** Profiles of names read by their family, by id and provider; kept to a bound (ids may come from users). */
const inferredProfiles = new Map<string, Readonly<ModelProfile>>();
const INFERRED_KEPT = 256;
/** Names already warned about: one warning per name and process. */
const warned = new Set<string>();

/**
 * The profile of an id read as `base`: the base's figures under the inference's name,
 * `inferredFrom` naming the base. Warns once per name.
 */
export function inferredProfile(
  id: string,
  provider: string | undefined,
  base: Readonly<ModelProfile>,
  { name, reason }: Inference,
): Readonly<ModelProfile> {
  const key = provider === undefined ? id : `${id}\u0000${provider}`;
  let profile = inferredProfiles.get(key);
  if (profile?.inferredFrom === base.name) return profile;
  profile = Object.freeze({ ...base, name, inferredFrom: base.name });
  if (inferredProfiles.size >= INFERRED_KEPT) inferredProfiles.clear();
  inferredProfiles.set(key, profile);
  if (!warned.has(name) && warned.size < INFERRED_KEPT) {
    warned.add(name);
    const input = base.maxInputTokens ? `, input at most ${base.maxInputTokens}` : "";
    console.warn(
      `ctxloom: the model ${JSON.stringify(name)} is not in ctxloom's catalog; ` +
        `it is read as ${base.name} by ${reason} ` +
        `(a ${base.contextWindow}-token window${input}). If its window differs, pass { name, contextWindow } or ` +
        `call registerModel(); ` +
        `getModelProfile(name, { strict: true }) and Loom.open({ strictModels: true }) refuse unknown names instead.`,
    );
  }
  return profile;
}
