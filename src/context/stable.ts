// A stable prefix for prompt caches. Providers bill the start of a request cheaper when it
// repeats the previous request's start byte for byte (OpenAI from 1,024 tokens on, Anthropic
// at cache_control breakpoints). While the whole branch fits, every build repeats the last one
// and adds to its end. Once the oldest messages must go, the plain selection drops exactly
// what the newest turn needs, so the start of the conversation moves on every request.
//
// Here the selection's horizon (the oldest message considered, CRITICAL ones and the newest
// user turn kept from anywhere as always) moves in steps instead: it stays put while what
// follows it fits, and when it must move it jumps to a checkpoint up to `step` tokens further
// than needed, so the following builds share their start again until the next jump. The
// checkpoint is the "roundest" depth in reach (the most trailing zero bits): a pure function
// of the branch and the budget, so any process, either engine, and a restored chat build the
// same context; as the branch grows the horizon only moves forward.
//
// The engine's own selection runs at that horizon: the budget, the forced messages and whole
// tool units are its guarantees, unchanged. O(W): the walks and selections touch the window.
import { CtxloomError, checkOptions, describe } from "../errors.js";
import { CRITICAL, ROLE_TOOL, ROLE_USER, type Selection } from "../engine/types.js";
import type { ContextSource, StablePrefixOptions } from "./types.js";

/** The default `stablePrefix.step`. */
export const DEFAULT_PREFIX_STEP = 0.1;

const HIGH = 2;

/** Checks `stablePrefix`: the step in force (0: off). @throws INVALID_ARGUMENT */
export function checkStablePrefix(value: unknown): number {
  if (value === undefined || value === true) return DEFAULT_PREFIX_STEP;
  if (value === false) return 0;
  const o = checkOptions<StablePrefixOptions>(value, "stablePrefix", ["step"]);
  if (o.step === undefined) return DEFAULT_PREFIX_STEP;
  if (typeof o.step !== "number" || !(o.step >= 0 && o.step <= 0.5)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `stablePrefix.step must be a fraction from 0 to 0.5 of the conversation's room; got ${describe(o.step)}.`,
    );
  }
  return o.step;
}

/**
 * The conversation's selection for `budget` tokens: the engine's plain selection while the
 * branch fits (or when `step` is 0), else the selection at the stable horizon, unless that
 * would drop a HIGH message the plain selection keeps (priorities win: the plain one then).
 * `room` sets the step in tokens (the conversation's room before any history-limit rounds). With
 * `userStart` (Anthropic's format, which drops what comes before the first user message) the
 * horizon is a user message, so that it never makes a kept answer lead the request.
 * The ids may be a view the next engine call reuses (see Engine.selectView): read or copy them first.
 */
export function selectStable(
  source: ContextSource,
  budget: number,
  window: number,
  room: number,
  step: number,
  userStart = false,
): Selection {
  const { engine: e, tree: t, head } = source;
  const view = e.selectView(t, head, budget, window);
  if (!view.fits || view.evicted === 0 || step <= 0) return view;
  // The walks below reuse the engine's buffer: the plain selection's ids copied first.
  const plain: Selection = {
    fits: view.fits,
    ids: view.ids.slice(),
    keptTokens: view.keptTokens,
    forcedTokens: view.forcedTokens,
    evicted: view.evicted,
  };
  const slack = Math.floor(step * room);
  const cut = stableHorizon(source, budget - plain.forcedTokens, window, slack, plain.ids.length, userStart);
  if (cut === 0) return plain;
  const stable = e.select(t, head, budget, cut);
  if (!stable.fits) return plain;
  const kept = new Set(stable.ids);
  for (const id of plain.ids) {
    if (!kept.has(id) && e.priority(t, id) === HIGH) return plain;
  }
  return stable; // its evicted counts the whole branch, as the plain selection's does
}

/**
 * How many of the newest entries of the summarized path the stable selection considers
 * (0: no stable horizon). `left` is the budget less the forced messages, `slack` the step,
 * `kept` how many entries the plain selection kept.
 */
function stableHorizon(
  source: ContextSource,
  left: number,
  window: number,
  slack: number,
  kept: number,
  userStart: boolean,
): number {
  const { engine: e, tree: t, head } = source;
  // The plain selection kept `kept` entries: the fitting suffix is about as long, so one walk a little longer usually
  // does.
  for (let max = kept + (kept >> 3) + 64; ; max *= 2) {
    const m = window > 0 ? Math.min(max, window) : max;
    const n = e.walkSummarized(t, head, m);
    const ids = e.ids.slice(0, n);
    // From the newest back: the oldest entry from which all that is not forced fits.
    let user = -1;
    let sum = 0;
    let first = n; // index of the oldest entry of the longest fitting suffix
    for (let i = n - 1; i >= 0; i--) {
      const id = ids[i]!;
      const forced = e.priority(t, id) === CRITICAL || (user < 0 && e.role(t, id) === ROLE_USER);
      if (user < 0 && e.role(t, id) === ROLE_USER) user = i;
      if (!forced) sum += e.tokens(t, id);
      if (sum > left) break;
      first = i;
    }
    if (first === 0 && n === m && n !== window) continue; // it all fits so far: walk further back
    if (first === 0 || first >= n) return 0; // all that is considered fits, or not even the newest entry does
    // The checkpoint: within `slack` tokens past `first`, the roundest depth that does not cut a tool unit (with
    // `userStart`, at a user message: Anthropic's format drops what comes before the first user message, which would
    // drop a HIGH answer the plain selection sends after its question).
    let best = -1;
    let bestZeros = -1;
    let dropped = 0;
    for (let i = first; i < n; i++) {
      const id = ids[i]!;
      const role = e.role(t, id);
      if (userStart ? role === ROLE_USER : role !== ROLE_TOOL) {
        const zeros = trailingZeros(e.depth(t, id));
        if (zeros > bestZeros) [best, bestZeros] = [i, zeros];
      }
      if (e.priority(t, id) !== CRITICAL && id !== ids[user]) dropped += e.tokens(t, id);
      if (dropped > slack) break;
    }
    return best < 0 ? 0 : n - best;
  }
}

const trailingZeros = (depth: number) => (depth === 0 ? 32 : 31 - Math.clz32(depth & -depth));
