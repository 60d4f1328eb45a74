// How a context sends tool results: `toolResults: { truncate, clear }`, the same keys at
// Loom.open (every chat), create (one chat, kept with it) and buildContext (one call), the
// nearest level that sets a key winning. A budget setting (what share of a request a result
// may take, when older ones give way), here with the others a chat keeps; the context room
// applies it as views (context/views.ts): the chat keeps every result whole, and a context
// sends a result too large cut, and older results as placeholders.
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { MAX_TOKENS } from "../message.js";

/** Which ends of a tool result are kept when it is cut: both (default), only the start, or only the end. */
export type ToolResultKeep = "head-tail" | "head" | "tail";

/** `toolResults: { truncate }`: how a result too large is sent. */
export interface ToolResultTruncation {
  /**
   * The most tokens a tool result may cost in a context (its count as a message, like
   * `message.tokens`). Default: a quarter of what a request of the model may hold. At least 16.
   */
  maxTokens?: number;
  /** "head-tail" (default: half each), "head" or "tail". */
  keep?: ToolResultKeep;
}

/**
 * When `toolResults: { clear }` starts: once the request would hold this many tokens, or this fraction of what it may
 * hold.
 */
export type ClearTrigger = { tokens: number } | { fraction: number };

/** `toolResults: { clear }`: older tool results sent as a short placeholder naming their message. */
export interface ToolResultClearing {
  /**
   * Clear only once the request, with nothing cleared, would hold more than this: `{ tokens }`
   * or `{ fraction }` of what a request may hold. Default `{ tokens: 0 }`: from the start.
   */
  trigger?: ClearTrigger;
  /** The newest tool results sent whole, whatever their size. Default 3. */
  keepNewest?: number;
  /**
   * The least tokens of older results cleared at once. Results are cleared in batches: once the
   * results older than the `keepNewest` newest hold this many tokens more than at the last
   * batch, and at least as many as follow them in the request (what a provider's prompt cache
   * bills again when the request changes before it), all of them are cleared together; between
   * batches the start of the request stays the same, so that prompt caches keep hitting.
   * Default 500.
   */
  atLeast?: number;
  /** Names of tools whose results are never cleared. Default none. */
  exclude?: readonly string[];
  /** Also send the arguments of a cleared result's call as `{}`. Default false. */
  inputs?: boolean;
}

/**
 * How a context sends tool results. The same keys at `Loom.open({ toolResults })` (every chat),
 * `create({ toolResults })` (one chat, kept with it) and `buildContext({ toolResults })` (one
 * call); the nearest level that sets a key wins. Nothing in the chat changes: `path()` keeps
 * every result whole, and a build with other settings sends them again.
 */
export interface ToolResultOptions {
  /**
   * Send a result too large cut to its head and tail around a marker naming its message: true
   * (the default policy), a policy, or false (sent whole; a unit too large for the request is
   * left out of it). Default true.
   */
  truncate?: boolean | ToolResultTruncation;
  /**
   * Send the results of older tool uses as a placeholder naming their message (a tool such as
   * `readToolResult` gets them back): true (the default policy), a policy, or false. Default
   * false for buildContext; the agent loops (`chatLoop`, `ctxloomMiddleware`) turn it on.
   */
  clear?: boolean | ToolResultClearing;
}

/** `truncate` once resolved: maxTokens null means a quarter of the request's limit. */
export interface TruncatePolicy {
  readonly maxTokens: number | null;
  readonly keep: ToolResultKeep;
}

/** `clear` once resolved. */
export interface ClearPolicy {
  readonly trigger: { readonly tokens: number } | { readonly fraction: number };
  readonly keepNewest: number;
  readonly atLeast: number;
  readonly exclude: readonly string[];
  readonly inputs: boolean;
}

/** The policies in force for one build (null: off). */
export interface ToolResultPolicy {
  readonly truncate: TruncatePolicy | null;
  readonly clear: ClearPolicy | null;
}

/** The smallest `truncate.maxTokens` accepted: room for the message's fields and a marker. */
export const MIN_TOOL_RESULT_TOKENS = 16;
/** The most tool results `keepNewest` may keep whole. */
export const MAX_KEEP_NEWEST = 1000;
const MAX_EXCLUDED = 256;

const KEYS = ["truncate", "clear"] as const;
const TRUNCATE_KEYS = ["maxTokens", "keep"] as const;
const CLEAR_KEYS = ["trigger", "keepNewest", "atLeast", "exclude", "inputs"] as const;
const KEEPS: readonly ToolResultKeep[] = ["head-tail", "head", "tail"];

/** The defaults: truncation on at a quarter of the limit, clearing off. */
export const DEFAULT_TOOL_RESULTS: ToolResultPolicy = { truncate: { maxTokens: null, keep: "head-tail" }, clear: null };

/** `clear: true`. */
export const DEFAULT_CLEAR: ClearPolicy = {
  trigger: { tokens: 0 },
  keepNewest: 3,
  atLeast: 500,
  exclude: [],
  inputs: false,
};

/**
 * Checks `toolResults` at one level and returns a copy of what it sets (a key left out is
 * left out: the level above's stays), as a chat keeps it and an export carries it; undefined
 * when it sets nothing.
 * @throws INVALID_ARGUMENT naming the key
 */
export function checkToolResultLevel(value: unknown, what: string): ToolResultOptions | undefined {
  if (value === undefined) return undefined;
  const o = checkOptions<ToolResultOptions>(value, what, KEYS);
  const copy: ToolResultOptions = {};
  if (o.truncate !== undefined) {
    truncateOf(o.truncate, `${what}.truncate`);
    copy.truncate = typeof o.truncate === "boolean" ? o.truncate : pick(o.truncate, TRUNCATE_KEYS);
  }
  if (o.clear !== undefined) {
    clearOf(o.clear, `${what}.clear`);
    if (typeof o.clear === "boolean") copy.clear = o.clear;
    else {
      const c = pick(o.clear, CLEAR_KEYS);
      if (c.trigger) c.trigger = { ...c.trigger };
      if (c.exclude) c.exclude = [...c.exclude];
      copy.clear = c;
    }
  }
  return copy.truncate === undefined && copy.clear === undefined ? undefined : copy;
}

/**
 * The policies in force at a level: each key the level sets (checked, as checkToolResultLevel
 * returns it) wins over the level above's. @throws INVALID_ARGUMENT
 */
export function toolResultPolicy(
  level: ToolResultOptions | undefined,
  above: ToolResultPolicy,
  what = "toolResults",
): ToolResultPolicy {
  if (level === undefined || (level.truncate === undefined && level.clear === undefined)) return above;
  return {
    truncate: level.truncate === undefined ? above.truncate : truncateOf(level.truncate, `${what}.truncate`),
    clear: level.clear === undefined ? above.clear : clearOf(level.clear, `${what}.clear`),
  };
}

function pick<T extends object>(o: T, keys: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of keys) if ((o as Record<string, unknown>)[k] !== undefined) out[k] = (o as Record<string, unknown>)[k];
  return out as T;
}

function truncateOf(t: unknown, what: string): TruncatePolicy | null {
  if (t === false) return null;
  if (t === true) return DEFAULT_TOOL_RESULTS.truncate;
  if (t === null || typeof t !== "object" || Array.isArray(t)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be true, false or { maxTokens, keep }; got ${describe(t)}.`,
    );
  }
  const p = checkOptions<ToolResultTruncation>(t, what, TRUNCATE_KEYS);
  const maxTokens =
    p.maxTokens === undefined
      ? null
      : checkInteger(p.maxTokens, `${what}.maxTokens`, MIN_TOOL_RESULT_TOKENS, MAX_TOKENS);
  return { maxTokens, keep: checkKeep(p.keep ?? "head-tail", `${what}.keep`) };
}

function clearOf(c: unknown, what: string): ClearPolicy | null {
  if (c === false) return null;
  if (c === true) return DEFAULT_CLEAR;
  if (c === null || typeof c !== "object" || Array.isArray(c)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be true, false or { trigger, keepNewest, atLeast, exclude, inputs }; got ${describe(c)}.`,
    );
  }
  const p = checkOptions<ToolResultClearing>(c, what, CLEAR_KEYS);
  const keepNewest =
    p.keepNewest === undefined
      ? DEFAULT_CLEAR.keepNewest
      : checkInteger(p.keepNewest, `${what}.keepNewest`, 0, MAX_KEEP_NEWEST);
  const atLeast =
    p.atLeast === undefined ? DEFAULT_CLEAR.atLeast : checkInteger(p.atLeast, `${what}.atLeast`, 0, MAX_TOKENS);
  if (p.inputs !== undefined && typeof p.inputs !== "boolean") {
    throw new CtxloomError("INVALID_ARGUMENT", `${what}.inputs must be true or false; got ${describe(p.inputs)}.`);
  }
  return {
    trigger: triggerOf(p.trigger, `${what}.trigger`),
    keepNewest,
    atLeast,
    exclude: excludeOf(p.exclude, `${what}.exclude`),
    inputs: p.inputs === true,
  };
}

function triggerOf(t: unknown, what: string): ClearPolicy["trigger"] {
  if (t === undefined) return DEFAULT_CLEAR.trigger;
  const o = checkOptions<{ tokens: number; fraction: number }>(t, what, ["tokens", "fraction"]);
  if ((o.tokens === undefined) === (o.fraction === undefined)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be { tokens } (a count) or { fraction } (of what a request may hold), one of them; got ` +
        `${describe(t)}.`,
    );
  }
  if (o.tokens !== undefined) return { tokens: checkInteger(o.tokens, `${what}.tokens`, 0, MAX_TOKENS) };
  if (typeof o.fraction !== "number" || !(o.fraction >= 0 && o.fraction <= 1)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.fraction must be a number from 0 to 1; got ${describe(o.fraction)}.`,
    );
  }
  return { fraction: o.fraction };
}

function excludeOf(list: unknown, what: string): readonly string[] {
  if (list === undefined) return [];
  if (
    !Array.isArray(list) ||
    list.length > MAX_EXCLUDED ||
    !list.every((n) => typeof n === "string" && n.length > 0 && n.length <= 128)
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} must be a list of at most ${MAX_EXCLUDED} tool names (non-empty strings); got ${describe(list)}.`,
    );
  }
  return [...list];
}

function checkKeep(keep: unknown, what: string): ToolResultKeep {
  if (!KEEPS.includes(keep as ToolResultKeep)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be "head-tail", "head" or "tail"; got ${describe(keep)}.`);
  }
  return keep as ToolResultKeep;
}

/** The tokens `truncate` lets a result cost in a request that may hold `limit`. */
export function truncateCap(policy: TruncatePolicy, limit: number): number {
  return policy.maxTokens ?? Math.max(MIN_TOOL_RESULT_TOKENS, Math.floor(limit / 4));
}

/** The request size past which `clear` acts, for a request that may hold `limit`. */
export function clearTrigger(policy: ClearPolicy, limit: number): number {
  const t = policy.trigger;
  return "tokens" in t ? t.tokens : Math.floor(t.fraction * limit);
}
