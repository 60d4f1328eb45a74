import { CtxloomError, checkKeys, checkOptions, describe, editDistance } from "../errors.js";
import { MAX_TOKENS } from "../message.js";
import { checkCounter } from "../tokens/counter-check.js";
import { OPEN_ENCODINGS, isOpenEncoding } from "../tokens/index.js";
import { ALIASES, CATALOG } from "./catalog.js";
import { bareId, inferFamily, inferredProfile } from "./infer.js";
import type {
  HistoryLimits,
  LanguageModelRef,
  ModelInput,
  ModelProfile,
  ModelRef,
  ProfileOptions,
  SizeClass,
} from "./types.js";

export type {
  SizeClass,
  ModelInput,
  LanguageModelRef,
  ModelRef,
  ProfileOptions,
  HistoryLimits,
  ModelProfile,
} from "./types.js";

/** The fields a profile may have: anything else is refused (a misspelling is never ignored). */
export const PROFILE_KEYS = [
  "name",
  "contextWindow",
  "maxInputTokens",
  "sizeClass",
  "tokensPerChar",
  "encoding",
  "counter",
  "historyLimits",
  "inferredFrom",
] as const;

/** History limits by size class. */
export const HISTORY_LIMITS: Readonly<Record<SizeClass, Readonly<HistoryLimits>>> = {
  tiny: { maxTurns: 3, maxCharsPerTurn: 100, memoryMaxChars: 300 },
  small: { maxTurns: 5, maxCharsPerTurn: 150, memoryMaxChars: 400 },
  medium: { maxTurns: 10, maxCharsPerTurn: 300, memoryMaxChars: 600 },
  large: { maxTurns: 20, maxCharsPerTurn: 500, memoryMaxChars: 1000 },
  xlarge: { maxTurns: 50, maxCharsPerTurn: 1000, memoryMaxChars: 2000 },
};

const SIZE_CLASSES = Object.keys(HISTORY_LIMITS) as SizeClass[];

/** Size class of a catalog model, from its window (the six first-class models are sized by hand). */
function sizeOfWindow(tokens: number): SizeClass {
  if (tokens >= 100_000) return "xlarge";
  if (tokens >= 32_000) return "large";
  if (tokens >= 16_000) return "medium";
  if (tokens >= 8_000) return "small";
  return "tiny";
}

const profiles = new Map<string, Readonly<ModelProfile>>();

function add(profile: ModelProfile): void {
  profiles.set(profile.name, Object.freeze({ ...profile, historyLimits: HISTORY_LIMITS[profile.sizeClass] }));
}

for (const { name, contextWindow, maxInputTokens, encoding, tokensPerChar } of CATALOG) {
  add({
    name,
    contextWindow,
    ...(maxInputTokens ? { maxInputTokens } : {}),
    sizeClass: sizeOfWindow(contextWindow),
    tokensPerChar,
    ...(encoding ? { encoding } : {}),
  });
}
// The six first-class models, as its table gives them (Ollama tags for the local ones). They
// come last so that they win where a name is in both (gpt-4o, gemini-2.0-flash).
add({ name: "llama3.2", contextWindow: 8_192, sizeClass: "small", tokensPerChar: 0.28, encoding: "llama3" });
add({ name: "llama3.2:1b", contextWindow: 8_192, sizeClass: "tiny", tokensPerChar: 0.28, encoding: "llama3" });
add({ name: "llama3.1:8b", contextWindow: 32_768, sizeClass: "medium", tokensPerChar: 0.28, encoding: "llama3" });
add({ name: "gemma2:9b", contextWindow: 8_192, sizeClass: "medium", tokensPerChar: 0.3 });
add({ name: "gemini-2.0-flash", contextWindow: 1_048_576, sizeClass: "xlarge", tokensPerChar: 0.25 });
add({ name: "gpt-4o", contextWindow: 128_000, sizeClass: "xlarge", tokensPerChar: 0.25, encoding: "o200k_base" });

/**
 * What may follow a known name in a longer id of the same model: a date (-2024-08-06,
 * -20250929, Vertex's @20250929), a -NNNN snapshot, -latest, Bedrock's -v2:0, an Ollama
 * :tag. Anything else ("-preview", ".5", "-mini") names another model.
 */
const VERSION = /^(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|latest)(?:-v\d+(?::\d+)?)?|-v\d+(?::\d+)?|:[\w.-]+)$/;

/**
 * The ids to try for a model id: as given, lowercased, and without a provider prefix (openai/, google/, anthropic.).
 */
function spellings(id: string): string[] {
  const bare = bareId(id);
  return [...new Set([id, id.toLowerCase(), bare, bare.toLowerCase()])].filter((s) => s.length > 0);
}

const known = (name: string): Readonly<ModelProfile> | undefined =>
  profiles.get(name) ?? (ALIASES[name] ? profiles.get(ALIASES[name]!) : undefined);

/** The profile of an id: a known name or alias, else a known name followed only by a version. */
function resolve(id: string): Readonly<ModelProfile> | undefined {
  const names = spellings(id);
  for (const name of names) {
    const exact = known(name);
    if (exact) return exact;
  }
  for (const name of names) {
    for (let k = name.length - 1; k > 0; k--) {
      const c = name[k];
      if (c !== "-" && c !== "@" && c !== ":") continue;
      if (!VERSION.test(name.slice(k))) continue;
      const base = known(name.slice(0, k));
      if (base) return base;
    }
  }
  return undefined;
}

/**
 * The profile of a model: a known name or alias (`listModels()`), with or without a
 * provider prefix (openai/gpt-4o, anthropic/claude-sonnet-4-5, Bedrock's
 * anthropic.claude-...-v1:0, google/gemini-2.5-pro), optionally followed by a version
 * (gpt-4o-2024-08-06 is gpt-4o, claude-sonnet-4-5@20250929 is claude-sonnet-4-5). A name the
 * catalog lacks is read by its family (claude-*, gpt-*, o*, gemini-*, grok-*, llama-*, qwen*,
 * mistral-*, deepseek-*) or its provider prefix as a documented model: the profile keeps the
 * name given, says `inferredFrom` which model it took, and a warning says so once per name
 * (`strict: true` refuses such names instead). An AI SDK model object (`{ provider, modelId }`)
 * is read by its `modelId`. A profile object is checked and returned, its missing fields filled in.
 * @throws UNKNOWN_MODEL naming close matches and how to describe the model; INVALID_ARGUMENT for a malformed profile or
 * options
 */
export function getModelProfile(model: ModelRef, options?: ProfileOptions): Readonly<ModelProfile> {
  const strict = checkOptions<ProfileOptions>(options, "getModelProfile(model, options)", ["strict"]).strict;
  if (strict !== undefined && typeof strict !== "boolean") {
    throw new CtxloomError("INVALID_ARGUMENT", `strict must be true or false; got ${describe(strict)}.`);
  }
  if (isLanguageModel(model)) {
    if (model.modelId.length === 0)
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `An AI SDK model's modelId must not be empty (provider ${describe(model.provider)}).`,
      );
    return byName(model.modelId, strict === true, model.provider);
  }
  if (typeof model === "object" && model !== null && !Array.isArray(model)) return checkProfile(model);
  if (typeof model !== "string" || model.length === 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `A model is a name like "gpt-4o", a profile { name, contextWindow } or an AI SDK model { provider, modelId }; ` +
        `got ${describe(model)}.`,
    );
  }
  return byName(model, strict === true);
}

/** An AI SDK model object: `provider` and `modelId` strings, and no `contextWindow` (which makes a profile). */
export function isLanguageModel(model: unknown): model is LanguageModelRef {
  if (typeof model !== "object" || model === null) return false;
  const m = model as Partial<LanguageModelRef> & { contextWindow?: unknown };
  return typeof m.modelId === "string" && typeof m.provider === "string" && m.contextWindow === undefined;
}

/** The profile of a model id: known, else read by its family (unless strict). @throws UNKNOWN_MODEL */
function byName(id: string, strict: boolean, provider?: string): Readonly<ModelProfile> {
  const found = resolve(id);
  if (found) return found;
  const inference = inferFamily(id, provider);
  if (inference && !strict) return inferredProfile(id, provider, profiles.get(inference.from)!, inference);
  const strictNote = inference ? ` (strict: it is not read as ${inference.from}, as ${inference.reason} would be)` : "";
  throw new CtxloomError(
    "UNKNOWN_MODEL",
    `Unknown model ${describe(id)}${strictNote}. ` +
      `Close matches: ${closeMatches(id).join(", ")}. ` +
      `Pass the model as { name: ${JSON.stringify(id)}, contextWindow: <its window in tokens> } instead of its name ` +
      `(optional: maxInputTokens, encoding, tokensPerChar, sizeClass), or register it once with registerModel({ ` +
      `name, contextWindow }).`,
  );
}

/**
 * A model with its window given by hand (the command's --context-window): the profile of
 * `name` (known, or read by its family: no warning, the window is given) with this window and
 * its size class, its input limit kept where smaller; `{ name, contextWindow }` for a name of
 * no known family. @throws INVALID_ARGUMENT for a window out of range
 */
export function withContextWindow(name: string, contextWindow: number): Readonly<ModelProfile> {
  const known = resolve(name);
  const inference = known ? undefined : inferFamily(name);
  const base = known ?? (inference ? profiles.get(inference.from) : undefined);
  const described: ModelInput = { name: inference?.name ?? base?.name ?? name, contextWindow };
  if (base) {
    described.tokensPerChar = base.tokensPerChar;
    if (base.encoding) described.encoding = base.encoding;
    if (base.maxInputTokens !== undefined && base.maxInputTokens < contextWindow)
      described.maxInputTokens = base.maxInputTokens;
  }
  return checkProfile(described);
}

/**
 * Adds or replaces a model profile, so that its name can be used anywhere.
 * @throws INVALID_ARGUMENT for a malformed profile
 */
export function registerModel(profile: ModelInput): Readonly<ModelProfile> {
  const checked = checkProfile(profile);
  profiles.set(checked.name, checked);
  return checked;
}

/** The profile registered under exactly this name, if any (no prefix matching). */
export function registeredProfile(name: string): Readonly<ModelProfile> | undefined {
  return profiles.get(name);
}

/** Names of every known model. */
export function listModels(): string[] {
  return [...profiles.keys()];
}

function checkProfile(input: ModelInput): Readonly<ModelProfile> {
  const p = checkOptions<ModelInput>(input, "A model profile", PROFILE_KEYS) as ModelInput;
  const bad = (what: string): never => {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `A model profile needs ${what}; got ${describe((p as unknown as Record<string, unknown>)[what.split(" ")[0]!])}.`,
    );
  };
  if (typeof p.name !== "string" || p.name.length === 0) bad("name (a non-empty string)");
  if (!Number.isInteger(p.contextWindow) || p.contextWindow < 16 || p.contextWindow > MAX_TOKENS) {
    bad(`contextWindow (an integer number of tokens from 16 to ${MAX_TOKENS})`);
  }
  if (
    p.maxInputTokens !== undefined &&
    !(Number.isInteger(p.maxInputTokens) && p.maxInputTokens >= 16 && p.maxInputTokens <= p.contextWindow)
  ) {
    bad("maxInputTokens (an integer number of tokens from 16 to the contextWindow)");
  }
  if (p.inferredFrom !== undefined && (typeof p.inferredFrom !== "string" || p.inferredFrom.length === 0))
    bad("inferredFrom (a model name)");
  if (p.sizeClass !== undefined && !SIZE_CLASSES.includes(p.sizeClass))
    bad(`sizeClass (one of ${SIZE_CLASSES.join(", ")})`);
  if (
    p.tokensPerChar !== undefined &&
    (typeof p.tokensPerChar !== "number" || !(p.tokensPerChar > 0 && p.tokensPerChar <= 4))
  ) {
    bad("tokensPerChar (a number in (0, 4])");
  }
  if (
    p.encoding !== undefined &&
    p.encoding !== "o200k_base" &&
    p.encoding !== "cl100k_base" &&
    !isOpenEncoding(p.encoding)
  ) {
    bad(`encoding ("o200k_base", "cl100k_base" or an open model's: ${OPEN_ENCODINGS.join(", ")})`);
  }
  if (p.counter !== undefined) checkCounter(p.counter, "A model profile's counter"); // tried on a few texts
  if (p.historyLimits !== undefined) {
    const limits = checkHistoryLimits(p.historyLimits, "the profile's historyLimits");
    if (typeof limits !== "object" || Object.keys(limits).length !== 3)
      bad("historyLimits (all of maxTurns, maxCharsPerTurn, memoryMaxChars)");
  }
  if (Object.isFrozen(p) && p.historyLimits && p.sizeClass && p.tokensPerChar !== undefined)
    return p as Readonly<ModelProfile>;
  const sizeClass = p.sizeClass ?? sizeOfWindow(p.contextWindow);
  return Object.freeze({
    historyLimits: HISTORY_LIMITS[sizeClass],
    ...p,
    sizeClass,
    tokensPerChar: p.tokensPerChar ?? 0.25,
  });
}

/**
 * A chat's or call's history-limits setting: true (the model's size class), false, or
 * limits of your own (missing fields keep the size class's). @throws INVALID_ARGUMENT
 */
export function checkHistoryLimits(value: unknown, what = "historyLimits"): boolean | Partial<HistoryLimits> {
  if (typeof value === "boolean") return value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be true, false or { maxTurns, maxCharsPerTurn, memoryMaxChars }; got ${describe(value)}.`,
    );
  }
  const limits = value as Partial<HistoryLimits>;
  checkKeys(limits, ["maxTurns", "maxCharsPerTurn", "memoryMaxChars"], what);
  for (const [key, v] of Object.entries(limits)) {
    if (!(Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_TOKENS)) {
      throw new CtxloomError("INVALID_ARGUMENT", `${what}.${key} must be a positive integer; got ${describe(v)}.`);
    }
  }
  return { ...limits };
}

/** The history limits that apply to a profile. */
export function historyLimitsOf(profile: ModelProfile): Readonly<HistoryLimits> {
  return profile.historyLimits ?? HISTORY_LIMITS[profile.sizeClass];
}

/** Up to three known names nearest to `name` (edit distance). */
function closeMatches(name: string): string[] {
  const scored = [...profiles.keys()].map((n) => [n, editDistance(name.toLowerCase(), n)] as const);
  scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, 3).map(([n]) => n);
}
