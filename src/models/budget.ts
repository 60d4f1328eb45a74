import { CtxloomError, checkKeys, checkOptions, describe } from "../errors.js";
import { getModelProfile } from "./profiles.js";
import type { ModelProfile, ModelRef } from "./types.js";

/** How a model's effective window is split. Fractions of the effective window; they sum to 1. */
export interface BudgetSplit {
  /** The system prompt's share. */
  system: number;
  /** The share of memory (the user's working memory and recalled messages). */
  memory: number;
  /** The conversation's share. */
  conversation: number;
  /** The new input's share. */
  input: number;
  /** The share kept free for the model's answer. */
  reserve: number;
}

/** The default split: system 25%, memory 20%, conversation 40%, input 10%, reserve 5%. */
export const DEFAULT_SPLIT: Readonly<BudgetSplit> = Object.freeze({
  system: 0.25,
  memory: 0.2,
  conversation: 0.4,
  input: 0.1,
  reserve: 0.05,
});

/**
 * Requests use 90% of the window: the rest is a safety margin for counting differences and the
 * reply. Never more than the model's input limit, where it has one (gpt-5: 272,000 of 400,000).
 */
export const EFFECTIVE_FRACTION = 0.9;

/** Token budgets of each part of a request. */
export interface Budget extends BudgetSplit {
  /** The model's context window. */
  window: number;
  /** 90% of the window (or `effectiveFraction`), at most the model's `maxInputTokens`: what the slices share. */
  effective: number;
}

const PARTS = ["system", "memory", "conversation", "input", "reserve"] as const;

/** Options of `budgetFor`. */
export interface BudgetOptions {
  /**
   * Fractions of the effective window (missing parts keep the defaults), as `budget` in `create()` and
   * `buildContext()`.
   */
  budget?: Partial<BudgetSplit>;
  /** The share of the window the slices use; default 0.9. */
  effectiveFraction?: number;
}

/**
 * Token budgets for a model: the effective window (90%, at most the model's input limit) split
 * by fractions, rounded so that the slices add up to the effective window exactly (largest
 * remainders get the spare tokens).
 * `budgetFor("llama3.2")` is the classic example: effective 7372, system 1843, memory 1474,
 * conversation 2949, input 737, reserve 369.
 * @throws UNKNOWN_MODEL; INVALID_ARGUMENT when the fractions do not sum to 1
 */
export function budgetFor(model: ModelRef, options?: BudgetOptions): Budget {
  const o = checkOptions<BudgetOptions>(options, "budgetFor(model, options)", ["budget", "effectiveFraction"]);
  const profile = getModelProfile(model);
  const fraction = o.effectiveFraction ?? EFFECTIVE_FRACTION;
  if (typeof fraction !== "number" || !(fraction > 0 && fraction <= 1)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `effectiveFraction must be a number in (0, 1]; got ${describe(fraction)}.`,
    );
  }
  return splitWindow(profile, checkSplit(o.budget), fraction);
}

/**
 * The budget of a model already resolved and a split already checked (what a build plan
 * uses, so that nothing passes through the model lookup twice).
 */
export function splitWindow(
  model: Pick<ModelProfile, "contextWindow" | "maxInputTokens">,
  split: BudgetSplit,
  fraction = EFFECTIVE_FRACTION,
): Budget {
  return { ...sharedSplit(model, split, fraction) };
}

/**
 * `splitWindow` without the copy: the budget kept for a frozen split (the default's) is handed
 * out itself, never to be changed (a build plan holds it, and each context gets a copy).
 */
export function sharedSplit(
  model: Pick<ModelProfile, "contextWindow" | "maxInputTokens">,
  split: BudgetSplit,
  fraction = EFFECTIVE_FRACTION,
): Readonly<Budget> {
  const window = model.contextWindow;
  const share = Math.floor(window * fraction);
  const effective = model.maxInputTokens !== undefined && model.maxInputTokens < share ? model.maxInputTokens : share;
  // Every build splits its window: the split of a frozen split (the default's) is kept per
  // window (and checked against the effective window: two models may share a window, not an
  // input limit).
  if (fraction !== EFFECTIVE_FRACTION || !Object.isFrozen(split)) return computeSplit(window, effective, split);
  let byWindow = splits.get(split);
  if (!byWindow) splits.set(split, (byWindow = new Map()));
  let budget = byWindow.get(window);
  if (budget?.effective !== effective) {
    if (byWindow.size >= SPLITS_KEPT) byWindow.clear();
    byWindow.set(window, (budget = computeSplit(window, effective, split)));
  }
  return budget;
}

/** Splits kept per frozen split, by window (one per model the chats build for, usually). */
const splits = new WeakMap<BudgetSplit, Map<number, Budget>>();
const SPLITS_KEPT = 16;

function computeSplit(window: number, effective: number, split: BudgetSplit): Budget {
  const exact = PARTS.map((part) => effective * split[part]);
  const slices = exact.map(Math.floor);
  let spare = effective - slices.reduce((a, b) => a + b, 0);
  const byRemainder = PARTS.map((_, i) => i).sort((a, b) => exact[b]! - slices[b]! - (exact[a]! - slices[a]!) || a - b);
  for (const i of byRemainder) {
    if (spare-- <= 0) break;
    slices[i]!++;
  }
  const budget = { window, effective } as Budget;
  PARTS.forEach((part, i) => (budget[part] = slices[i]!));
  return budget;
}

/** A complete split from a partial one (missing parts keep the default fractions). @throws INVALID_ARGUMENT */
export function checkSplit(split: Partial<BudgetSplit> | undefined): BudgetSplit {
  if (split === undefined) return DEFAULT_SPLIT;
  if (split === null || typeof split !== "object" || Array.isArray(split)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `budget must be an object of fractions { system, memory, conversation, input, reserve }; got ${describe(split)}.`,
    );
  }
  checkKeys(split, PARTS, "budget");
  const full = { ...DEFAULT_SPLIT, ...split };
  for (const part of PARTS) {
    const v = full[part];
    if (typeof v !== "number" || !(v >= 0 && v <= 1)) {
      throw new CtxloomError("INVALID_ARGUMENT", `budget.${part} must be a fraction from 0 to 1; got ${describe(v)}.`);
    }
  }
  const sum = PARTS.reduce((s, part) => s + full[part], 0);
  if (Math.abs(sum - 1) > 1e-9) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The budget fractions must sum to 1; these sum to ${+sum.toFixed(6)} ` +
        `(${PARTS.map((p) => `${p} ${full[p]}`).join(", ")}).`,
    );
  }
  return full;
}
