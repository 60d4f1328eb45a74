// Calibration from what providers report: every response says how many input tokens it counted
// (OpenAI usage.prompt_tokens, Anthropic usage.input_tokens with its cache reads and writes, the
// AI SDK's usage.inputTokens, Gemini's usageMetadata.promptTokenCount). Each report, set against
// ctxloom's count of the request it answers, is a ratio; a Loom keeps the newest ratios per
// model and script (texts of different scripts are estimated differently well), and a build's
// limit is divided by the largest of them: the calibrated count of a request is never below
// what its model's provider counted lately, so a calibrated budget is not exceeded. The state is
// a small JSON value the app keeps (`loom.exportCalibration()`, `Loom.open({ calibration })`):
// it belongs to a model and its provider, not to a chat, and needs no store schema.
import { CtxloomError, describe } from "../errors.js";

/** Ratios kept per model and script: the newest exchanges (a window fills in a few). */
export const CALIBRATION_SAMPLES = 8;
/** Added to the largest ratio: what rounding and a shape not seen yet may add. */
const MARGIN = 0.01;

/** A script class of a request's texts: where an estimate's error differs. */
export type ScriptClass = "latin" | "cyrillic-greek" | "cjk" | "other";

/** One model and script's calibration: the newest ratios (provider's count / ctxloom's) and the errors measured. */
export interface CalibrationEntry {
  /** The model the reports were about. */
  model: string;
  /** The script class of the texts counted. */
  script: ScriptClass;
  /** Provider's count over ctxloom's, newest last (at most CALIBRATION_SAMPLES). */
  ratios: number[];
  /** Reports heard. */
  reports: number;
  /** Mean |error| of ctxloom's uncalibrated count, as a fraction of the provider's (0.12: 12%). */
  errorBefore: number;
  /** Mean error of the calibrated count at the time of each report (positive: counted above the provider). */
  errorAfter: number;
}

/** What `loom.exportCalibration()` gives and `Loom.open({ calibration })` takes. */
export interface CalibrationState {
  /** The format's version: 1. */
  version: 1;
  /** One entry per model and script class heard of. */
  entries: CalibrationEntry[];
}

/** The script class of texts: the class of most of their letters. */
export function scriptClass(texts: readonly string[]): ScriptClass {
  let latin = 0;
  let cyrillic = 0;
  let cjk = 0;
  let other = 0;
  for (const text of texts) {
    const end = Math.min(text.length, 2000); // a sample: the class of a long text shows early
    for (let i = 0; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        if ((c | 0x20) - 0x61 < 26) latin++;
      } else if (c < 0x250) latin++;
      else if (c >= 0x370 && c < 0x530) cyrillic++;
      else if ((c >= 0x3040 && c < 0xa000) || (c >= 0xac00 && c < 0xd7b0) || (c >= 0xf900 && c < 0xfb00)) cjk++;
      else if (c < 0xd800 || c >= 0xe000) other++;
    }
  }
  const most = Math.max(latin, cyrillic, cjk, other);
  if (most === 0 || most === latin) return "latin";
  if (most === cjk) return "cjk";
  return most === cyrillic ? "cyrillic-greek" : "other";
}

/**
 * The input tokens a provider reported: a number, or any of their usage objects (or a response
 * that carries one): OpenAI's `{ prompt_tokens }` (Chat Completions) or `{ input_tokens }`
 * (Responses), Anthropic's `{ input_tokens, cache_read_input_tokens, cache_creation_input_tokens }`
 * (summed: all were input), the AI SDK's `{ inputTokens }`, Gemini's `{ promptTokenCount }` or
 * `{ usageMetadata }`. Undefined when it holds none of them.
 */
export function reportedInputTokens(reported: unknown): number | undefined {
  if (typeof reported === "number") return Number.isInteger(reported) && reported > 0 ? reported : undefined;
  if (reported === null || typeof reported !== "object") return undefined;
  const r = reported as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : undefined);
  if (r.usage !== undefined && r.usage !== null) return reportedInputTokens(r.usage);
  if (r.usageMetadata !== undefined && r.usageMetadata !== null) return reportedInputTokens(r.usageMetadata);
  const inputTokens = r.inputTokens;
  const aiSdk =
    typeof inputTokens === "object" && inputTokens !== null
      ? n((inputTokens as { total?: unknown }).total)
      : n(inputTokens);
  const anthropic = n(r.input_tokens);
  const total =
    n(r.prompt_tokens) ??
    aiSdk ??
    n(r.promptTokenCount) ??
    (anthropic === undefined
      ? undefined
      : anthropic + (n(r.cache_read_input_tokens) ?? 0) + (n(r.cache_creation_input_tokens) ?? 0));
  return total !== undefined && total > 0 ? Math.round(total) : undefined;
}

/** A Loom's calibrations, by model and script. */
export class Calibration {
  readonly #entries = new Map<string, CalibrationEntry>();
  /** The models with a report (a build of another model reads no script). */
  readonly #models = new Set<string>();

  constructor(state?: CalibrationState) {
    if (state === undefined) return;
    for (const e of checkState(state).entries) {
      this.#entries.set(key(e.model, e.script), { ...e, ratios: [...e.ratios] });
      this.#models.add(e.model);
    }
  }

  /** Whether a provider reported a count for this model: else its factor is 1 whatever the script. */
  knows(model: string): boolean {
    return this.#models.has(model);
  }

  /** Whether a provider reported a count for this model in texts of this script. */
  has(model: string, script: ScriptClass): boolean {
    const entry = this.#entries.get(key(model, script));
    return entry !== undefined && entry.ratios.length > 0;
  }

  /** What a request's count is multiplied by (its limit divided by) for this model and script: 1 before any report. */
  factor(model: string, script: ScriptClass): number {
    const entry = this.#entries.get(key(model, script));
    if (!entry || entry.ratios.length === 0) return 1;
    // Never below 1: a report under ctxloom's count (or a test double's made-up usage) never widens a budget.
    return Math.max(1, Math.max(...entry.ratios) + MARGIN);
  }

  /** Notes a provider's count `actual` of a request ctxloom counted `estimate` (uncalibrated) tokens. */
  observe(model: string, script: ScriptClass, estimate: number, actual: number): void {
    const k = key(model, script);
    let entry = this.#entries.get(k);
    const factor = this.factor(model, script);
    if (!entry)
      this.#entries.set(k, (entry = { model, script, ratios: [], reports: 0, errorBefore: 0, errorAfter: 0 }));
    this.#models.add(model);
    const before = Math.abs(estimate - actual) / actual;
    const after = (estimate * factor - actual) / actual;
    entry.reports++;
    entry.errorBefore += (before - entry.errorBefore) / entry.reports;
    entry.errorAfter += (after - entry.errorAfter) / entry.reports;
    entry.ratios.push(actual / estimate);
    if (entry.ratios.length > CALIBRATION_SAMPLES) entry.ratios.shift();
  }

  /** The entries of one model (every script), copied. */
  of(model: string): CalibrationEntry[] {
    return [...this.#entries.values()].filter((e) => e.model === model).map((e) => ({ ...e, ratios: [...e.ratios] }));
  }

  /** The whole state, as JSON an app keeps. */
  export(): CalibrationState {
    return { version: 1, entries: [...this.#entries.values()].map((e) => ({ ...e, ratios: [...e.ratios] })) };
  }
}

const key = (model: string, script: ScriptClass) => `${model}\u0000${script}`;
const SCRIPTS: readonly ScriptClass[] = ["latin", "cyrillic-greek", "cjk", "other"];

/** A calibration state as `Loom.open({ calibration })` takes it. @throws INVALID_ARGUMENT */
export function checkState(state: unknown): CalibrationState {
  const bad = (why: string): never => {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `calibration must be what loom.exportCalibration() gave (${why}); got ${describe(state)}.`,
    );
  };
  if (state === null || typeof state !== "object" || (state as { version?: unknown }).version !== 1) bad("version 1");
  const entries = (state as { entries?: unknown }).entries;
  if (!Array.isArray(entries)) bad("a list of entries");
  for (const e of entries as CalibrationEntry[]) {
    const ok =
      e !== null &&
      typeof e === "object" &&
      typeof e.model === "string" &&
      SCRIPTS.includes(e.script) &&
      Array.isArray(e.ratios) &&
      e.ratios.length <= CALIBRATION_SAMPLES &&
      e.ratios.every((r) => typeof r === "number" && r > 0 && r < 100) &&
      Number.isInteger(e.reports) &&
      e.reports >= 0 &&
      Number.isFinite(e.errorBefore) &&
      Number.isFinite(e.errorAfter);
    if (!ok)
      bad(`entries of { model, script, ratios (at most ${CALIBRATION_SAMPLES}), reports, errorBefore, errorAfter }`);
  }
  return state as CalibrationState;
}
