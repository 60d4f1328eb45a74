import { CtxloomError, checkKeys, checkOptions, describe, editDistance } from "../errors.js";
import { MAX_TOKENS } from "../message.js";
import type { TokenCounter } from "../tokens/types.js";
import { ALIASES, CATALOG } from "./catalog.js";
import type { Encoding } from "./types.js";

/** Size classes: they set the history limits a chat may opt into. */
export type SizeClass = "tiny" | "small" | "medium" | "large" | "xlarge";

/**
 * A model described by hand: a name and a window are enough; the size class follows from
 * the window and tokensPerChar defaults to 0.25 (about 4 characters a token).
 */
export type ModelInput = Pick<ModelProfile, "name" | "contextWindow"> & Partial<ModelProfile>;

/** The fields a profile may have: anything else is refused (a misspelling is never ignored). */
export const PROFILE_KEYS = ["name", "contextWindow", "sizeClass", "tokensPerChar", "encoding", "counter", "historyLimits"] as const;

/** The history limits of a size class. */
export interface HistoryLimits {
  /** Turns (a user message and its answer) kept at most. */
  maxTurns: number;
  /** Characters kept of each message. */
  maxCharsPerTurn: number;
  /** Characters of memory text kept. */
  memoryMaxChars: number;
}

/** What ctxloom knows of a model. Custom profiles are accepted anywhere a model name is. */
export interface ModelProfile {
  name: string;
  /** The model's context window in tokens. */
  contextWindow: number;
  sizeClass: SizeClass;
  /** Tokens per character, for the heuristic counter when the encoding is unknown. */
  tokensPerChar: number;
  /** The BPE encoding, where known: counts are then exact. */
  encoding?: Encoding;
  /** A counter of your own (another tokenizer); it wins over `encoding` and the heuristic. */
  counter?: TokenCounter;
  /** History limits (applied only when a chat or call opts in); default: the size class's row of the table below. */
  historyLimits?: HistoryLimits;
}

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

for (const { name, contextWindow, encoding, tokensPerChar } of CATALOG) {
  add({ name, contextWindow, sizeClass: sizeOfWindow(contextWindow), tokensPerChar, ...(encoding ? { encoding } : {}) });
}
// The six first-class models, as its table gives them (Ollama tags for the local ones). They
// come last so that they win where a name is in both (gpt-4o, gemini-2.0-flash).
add({ name: "llama3.2", contextWindow: 8_192, sizeClass: "small", tokensPerChar: 0.28 });
add({ name: "llama3.2:1b", contextWindow: 8_192, sizeClass: "tiny", tokensPerChar: 0.28 });
add({ name: "llama3.1:8b", contextWindow: 32_768, sizeClass: "medium", tokensPerChar: 0.28 });
add({ name: "gemma2:9b", contextWindow: 8_192, sizeClass: "medium", tokensPerChar: 0.3 });
add({ name: "gemini-2.0-flash", contextWindow: 1_048_576, sizeClass: "xlarge", tokensPerChar: 0.25 });
add({ name: "gpt-4o", contextWindow: 128_000, sizeClass: "xlarge", tokensPerChar: 0.25, encoding: "o200k_base" });

/**
 * What may follow a known name in a longer id of the same model: a date (-2024-08-06,
 * -20250929, Vertex's @20250929), a -NNNN snapshot, -latest, Bedrock's -v2:0, an Ollama
 * :tag. Anything else ("-preview", ".5", "-mini") names another model.
 */
const VERSION = /^(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|latest)(?:-v\d+(?::\d+)?)?|-v\d+(?::\d+)?|:[\w.-]+)$/;
/** Bedrock's provider prefix, with its optional cross-region one: "us.anthropic.claude-...". */
const BEDROCK = /^(?:(?:us|eu|apac|global|us-gov)\.)?(?:anthropic|meta|mistral|deepseek|qwen|openai|amazon|cohere|ai21|writer|xai)\./;

/** The ids to try for a model id: as given, lowercased, and without a provider prefix (openai/, google/, anthropic.). */
function spellings(id: string): string[] {
  const bare = id.slice(id.lastIndexOf("/") + 1).replace(BEDROCK, "");
  return [...new Set([id, id.toLowerCase(), bare, bare.toLowerCase()])].filter((s) => s.length > 0);
}

const known = (name: string): Readonly<ModelProfile> | undefined => profiles.get(name) ?? (ALIASES[name] ? profiles.get(ALIASES[name]!) : undefined);

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
 * (gpt-4o-2024-08-06 is gpt-4o, claude-sonnet-4-5@20250929 is claude-sonnet-4-5). A
 * profile object is checked and returned, its missing fields filled in.
 * @throws UNKNOWN_MODEL naming close matches and how to describe the model; INVALID_ARGUMENT for a malformed profile
 */
export function getModelProfile(model: string | ModelInput): Readonly<ModelProfile> {
  if (typeof model === "object" && model !== null && !Array.isArray(model)) return checkProfile(model);
  if (typeof model !== "string" || model.length === 0) {
    throw new CtxloomError("INVALID_ARGUMENT", `A model is a name like "gpt-4o" or a profile { name, contextWindow }; got ${describe(model)}.`);
  }
  const found = resolve(model);
  if (found) return found;
  throw new CtxloomError(
    "UNKNOWN_MODEL",
    `Unknown model ${describe(model)}. Close matches: ${closeMatches(model).join(", ")}. ` +
      `Pass the model as { name: ${JSON.stringify(model)}, contextWindow: <its window in tokens> } instead of its name ` +
      `(optional: encoding, tokensPerChar, sizeClass), or register it once with registerModel({ name, contextWindow }).`,
  );
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
    throw new CtxloomError("INVALID_ARGUMENT", `A model profile needs ${what}; got ${describe((p as unknown as Record<string, unknown>)[what.split(" ")[0]!])}.`);
  };
  if (typeof p.name !== "string" || p.name.length === 0) bad("name (a non-empty string)");
  if (!Number.isInteger(p.contextWindow) || p.contextWindow < 16 || p.contextWindow > MAX_TOKENS) {
    bad(`contextWindow (an integer number of tokens from 16 to ${MAX_TOKENS})`);
  }
  if (p.sizeClass !== undefined && !SIZE_CLASSES.includes(p.sizeClass)) bad(`sizeClass (one of ${SIZE_CLASSES.join(", ")})`);
  if (p.tokensPerChar !== undefined && (typeof p.tokensPerChar !== "number" || !(p.tokensPerChar > 0 && p.tokensPerChar <= 4))) {
    bad("tokensPerChar (a number in (0, 4])");
  }
  if (p.encoding !== undefined && p.encoding !== "o200k_base" && p.encoding !== "cl100k_base") bad(`encoding ("o200k_base" or "cl100k_base")`);
  if (p.counter !== undefined && (p.counter === null || typeof p.counter !== "object" || typeof p.counter.count !== "function")) {
    bad("counter (a TokenCounter: { name, exact, count(text) })");
  }
  if (p.historyLimits !== undefined) {
    const limits = checkHistoryLimits(p.historyLimits, "the profile's historyLimits");
    if (typeof limits !== "object" || Object.keys(limits).length !== 3) bad("historyLimits (all of maxTurns, maxCharsPerTurn, memoryMaxChars)");
  }
  if (Object.isFrozen(p) && p.historyLimits && p.sizeClass && p.tokensPerChar !== undefined) return p as Readonly<ModelProfile>;
  const sizeClass = p.sizeClass ?? sizeOfWindow(p.contextWindow);
  return Object.freeze({ historyLimits: HISTORY_LIMITS[sizeClass], ...p, sizeClass, tokensPerChar: p.tokensPerChar ?? 0.25 });
}

/**
 * A chat's or call's history-limits setting: true (the model's size class), false, or
 * limits of your own (missing fields keep the size class's). @throws INVALID_ARGUMENT
 */
export function checkHistoryLimits(value: unknown, what = "historyLimits"): boolean | Partial<HistoryLimits> {
  if (typeof value === "boolean") return value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be true, false or { maxTurns, maxCharsPerTurn, memoryMaxChars }; got ${describe(value)}.`);
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
