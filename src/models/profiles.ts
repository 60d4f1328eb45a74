import { CtxloomError, describe } from "../errors.js";
import { MAX_TOKENS } from "../tokens/chat.js";
import type { TokenCounter } from "../tokens/types.js";
import { CATALOG } from "./catalog.js";
import type { Encoding } from "./types.js";

/** Seed 001's size classes: they set the history limits a chat may opt into. */
export type SizeClass = "tiny" | "small" | "medium" | "large" | "xlarge";

/** Seed 001's history limits for a size class. */
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
  /** History limits (applied only when a chat or call opts in); default: the size class's row of seed 001's table. */
  historyLimits?: HistoryLimits;
}

/** Seed 001's table: history limits by size class. */
export const HISTORY_LIMITS: Readonly<Record<SizeClass, Readonly<HistoryLimits>>> = {
  tiny: { maxTurns: 3, maxCharsPerTurn: 100, memoryMaxChars: 300 },
  small: { maxTurns: 5, maxCharsPerTurn: 150, memoryMaxChars: 400 },
  medium: { maxTurns: 10, maxCharsPerTurn: 300, memoryMaxChars: 600 },
  large: { maxTurns: 20, maxCharsPerTurn: 500, memoryMaxChars: 1000 },
  xlarge: { maxTurns: 50, maxCharsPerTurn: 1000, memoryMaxChars: 2000 },
};

const SIZE_CLASSES = Object.keys(HISTORY_LIMITS) as SizeClass[];

/** Size class of a catalog model, from its window (seed 001 sizes its own six by hand). */
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
// Seed 001's six models, as its table gives them (Ollama tags for the local ones). They
// come last so that they win where a name is in both (gpt-4o, gemini-2.0-flash).
add({ name: "llama3.2", contextWindow: 8_192, sizeClass: "small", tokensPerChar: 0.28 });
add({ name: "llama3.2:1b", contextWindow: 8_192, sizeClass: "tiny", tokensPerChar: 0.28 });
add({ name: "llama3.1:8b", contextWindow: 32_768, sizeClass: "medium", tokensPerChar: 0.28 });
add({ name: "gemma2:9b", contextWindow: 8_192, sizeClass: "medium", tokensPerChar: 0.3 });
add({ name: "gemini-2.0-flash", contextWindow: 1_048_576, sizeClass: "xlarge", tokensPerChar: 0.25 });
add({ name: "gpt-4o", contextWindow: 128_000, sizeClass: "xlarge", tokensPerChar: 0.25, encoding: "o200k_base" });

/** Characters that may follow a known name in a longer id ("gpt-4o-2024-08-06", "llama3.2:3b"). */
const SEPARATORS = new Set(["-", ":", "@", ".", "/", "_"]);

/**
 * The profile of a model: an exact name, else the longest known name it starts with
 * (`gpt-4o-2024-08-06` is gpt-4o). A profile object is checked and returned as is.
 * @throws UNKNOWN_MODEL naming close matches; INVALID_ARGUMENT for a malformed profile
 */
export function getModelProfile(model: string | ModelProfile): Readonly<ModelProfile> {
  if (typeof model === "object" && model !== null) return checkProfile(model);
  if (typeof model !== "string" || model.length === 0) {
    throw new CtxloomError("INVALID_ARGUMENT", `A model is a name like "gpt-4o" or a profile object; got ${describe(model)}.`);
  }
  const exact = profiles.get(model);
  if (exact) return exact;
  let best: Readonly<ModelProfile> | undefined;
  for (const profile of profiles.values()) {
    const n = profile.name;
    if (model.startsWith(n) && SEPARATORS.has(model[n.length]!) && (!best || n.length > best.name.length)) best = profile;
  }
  if (best) return best;
  throw new CtxloomError(
    "UNKNOWN_MODEL",
    `Unknown model ${describe(model)}. Close matches: ${closeMatches(model).join(", ")}. ` +
      `Pass a known name, register yours with registerModel({ name, contextWindow, sizeClass, tokensPerChar }), ` +
      `or pass such a profile object instead of the name.`,
  );
}

/**
 * Adds or replaces a model profile, so that its name can be used anywhere.
 * @throws INVALID_ARGUMENT for a malformed profile
 */
export function registerModel(profile: ModelProfile): Readonly<ModelProfile> {
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

function checkProfile(p: ModelProfile): Readonly<ModelProfile> {
  const bad = (what: string): never => {
    throw new CtxloomError("INVALID_ARGUMENT", `A model profile needs ${what}; got ${describe((p as unknown as Record<string, unknown>)[what.split(" ")[0]!])}.`);
  };
  if (typeof p.name !== "string" || p.name.length === 0) bad("name (a non-empty string)");
  if (!Number.isInteger(p.contextWindow) || p.contextWindow < 16 || p.contextWindow > MAX_TOKENS) {
    bad(`contextWindow (an integer number of tokens from 16 to ${MAX_TOKENS})`);
  }
  if (!SIZE_CLASSES.includes(p.sizeClass)) bad(`sizeClass (one of ${SIZE_CLASSES.join(", ")})`);
  if (typeof p.tokensPerChar !== "number" || !(p.tokensPerChar > 0 && p.tokensPerChar <= 4)) bad("tokensPerChar (a number in (0, 4])");
  if (p.encoding !== undefined && p.encoding !== "o200k_base" && p.encoding !== "cl100k_base") bad(`encoding ("o200k_base" or "cl100k_base")`);
  if (p.counter !== undefined && (typeof p.counter !== "object" || typeof p.counter.count !== "function")) bad("counter (a TokenCounter: { name, exact, count(text) })");
  if (p.historyLimits !== undefined) {
    const limits = checkHistoryLimits(p.historyLimits, "the profile's historyLimits");
    if (typeof limits !== "object" || Object.keys(limits).length !== 3) bad("historyLimits (all of maxTurns, maxCharsPerTurn, memoryMaxChars)");
  }
  return Object.isFrozen(p) && p.historyLimits ? p : Object.freeze({ historyLimits: HISTORY_LIMITS[p.sizeClass], ...p });
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
  for (const [key, v] of Object.entries(limits)) {
    if (!(key === "maxTurns" || key === "maxCharsPerTurn" || key === "memoryMaxChars")) {
      throw new CtxloomError("INVALID_ARGUMENT", `Unknown ${what} field ${describe(key)}; the fields are maxTurns, maxCharsPerTurn, memoryMaxChars.`);
    }
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
  const scored = [...profiles.keys()].map((n) => [n, distance(name.toLowerCase(), n)] as const);
  scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, 3).map(([n]) => n);
}

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
