/**
 * What `Loom.open(options)` and `Loom.withEngine` take, checked: the option keys, the engine's options (engine,
 * wasm, maxMemoryMB, bpe modules) and what a Loom keeps of the rest (LoomSettings: store, counter, open chats,
 * summaries, recall's embedder, tool results, reasoning, calibration, memory scope).
 */
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { memoryStore } from "../store/memory.js";
import { internalsOf } from "../store/internal.js";
import { STORE_METHODS, type Store } from "../store/types.js";
import type { CounterMode } from "../models/counting.js";
import { Calibration, checkState } from "../models/calibration.js";
import { checkLoomSummaries } from "../summary/settings.js";
import type { SummaryLevel } from "../summary/policy.js";
import { checkCompactionListener, type CompactionListener } from "./compaction.js";
import type { Embedder } from "../recall/embedder.js";
import { RecallHub } from "../recall/hub.js";
import {
  DEFAULT_TOOL_RESULTS,
  checkToolResultLevel,
  toolResultPolicy,
  type ToolResultPolicy,
} from "../models/tool-results.js";
import { checkReasoningTurns, type ReasoningTurns } from "../models/reasoning.js";
import type { BpeModuleSource, LoomOptions, LoomRecallOptions } from "./loom-options.js";
import { checkMemoryScope } from "../context/build-plan.js";
import type { MemoryScope } from "../context/types.js";

/** What a Loom keeps of its options, checked: everything but its engine. */
export interface LoomSettings {
  store: Store;
  counter: CounterMode;
  maxOpenChats: number;
  summaries: SummaryLevel;
  embedder: Embedder | null;
  toolResults: ToolResultPolicy;
  reasoningTurns: ReasoningTurns | undefined;
  embedEagerly: boolean;
  strictModels: boolean;
  onCompaction: CompactionListener | undefined;
  calibration: Calibration;
  memoryScope: MemoryScope | undefined;
}

/** The default of `Loom.open({ maxOpenChats })`. */
export const DEFAULT_MAX_OPEN_CHATS = 1000;

export const LOOM_KEYS = [
  "engine",
  "wasm",
  "maxMemoryMB",
  "store",
  "counter",
  "maxOpenChats",
  "summaries",
  "recall",
  "toolResults",
  "reasoningTurns",
  "strictModels",
  "bpe",
  "onCompaction",
  "calibration",
  "memoryScope",
] as const;

const RECALL_KEYS = ["embedder"] as const;

/**
 * `Loom.open({ recall })` as the hub reads it: an Embedder, true (built in), false (off) or undefined (built in,
 * lazily). @throws INVALID_ARGUMENT
 */
function recallEmbedder(recall: unknown): unknown {
  if (recall === undefined || typeof recall === "boolean") return recall;
  const o = checkOptions<LoomRecallOptions>(recall, "Loom.open(options).recall", RECALL_KEYS);
  if (o.embedder === undefined) return true;
  if (o.embedder === null || typeof o.embedder !== "object") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `recall.embedder must be an Embedder ({ name, dimension, embed }); got ${describe(o.embedder)}. Leave it out ` +
        `for the built-in one, or pass recall: false to turn recall off.`,
    );
  }
  return o.embedder;
}

/**
 * The options of `Loom.open(options)` (their keys checked by the caller): the engine's checked, the rest as
 * loomSettings keeps them, and the counter modules to load. @throws INVALID_ARGUMENT
 */
export function openSettings(o: LoomOptions): { settings: LoomSettings; bpeSources: readonly BpeModuleSource[] } {
  if (o.engine !== undefined && o.engine !== "wasm" && o.engine !== "js") {
    throw new CtxloomError("INVALID_ARGUMENT", `engine must be "wasm" or "js"; got ${describe(o.engine)}.`);
  }
  if (
    o.maxMemoryMB !== undefined &&
    !(typeof o.maxMemoryMB === "number" && o.maxMemoryMB >= 1 && o.maxMemoryMB <= 4096)
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `maxMemoryMB must be a number from 1 to 4096; got ${describe(o.maxMemoryMB)}.`,
    );
  }
  if (
    o.wasm !== undefined &&
    !(o.wasm instanceof WebAssembly.Module || o.wasm instanceof ArrayBuffer || ArrayBuffer.isView(o.wasm))
  ) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `wasm must be a WebAssembly.Module or the bytes of ctxloom.wasm; got ${describe(o.wasm)}.`,
    );
  }
  const settings = loomSettings(o);
  const bpeSources = o.bpe === undefined ? [] : Array.isArray(o.bpe) ? o.bpe : [o.bpe];
  const isSource = (b: unknown) =>
    b instanceof WebAssembly.Module || b instanceof ArrayBuffer || ArrayBuffer.isView(b) || b instanceof URL;
  if (!bpeSources.every(isSource) || (Array.isArray(o.bpe) && o.bpe.length === 0)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `bpe must be a WebAssembly.Module, the bytes or the URL of a counter module ("ctxloom/bpe.wasm", ` +
        `"ctxloom/bpe-cl100k.wasm", "ctxloom/bpe-vocab.wasm"), ` +
        `or a list of them; got ${describe(o.bpe)}.`,
    );
  }
  return { settings, bpeSources };
}

/** What a Loom keeps of its options (all but the engine's), checked. */
export function loomSettings(o: LoomOptions): LoomSettings {
  if (o.counter !== undefined && o.counter !== "exact" && o.counter !== "heuristic") {
    throw new CtxloomError("INVALID_ARGUMENT", `counter must be "exact" or "heuristic"; got ${describe(o.counter)}.`);
  }
  const summaries = checkLoomSummaries(o.summaries);
  const given = o.maxOpenChats === undefined ? undefined : checkInteger(o.maxOpenChats, "maxOpenChats", 1);
  const embedder = RecallHub.embedderOf(recallEmbedder(o.recall));
  const toolResults = toolResultPolicy(
    checkToolResultLevel(o.toolResults, "Loom.open(options).toolResults"),
    DEFAULT_TOOL_RESULTS,
  );
  const reasoningTurns = checkReasoningTurns(o.reasoningTurns, "Loom.open(options).reasoningTurns");
  if (o.strictModels !== undefined && typeof o.strictModels !== "boolean") {
    throw new CtxloomError("INVALID_ARGUMENT", `strictModels must be true or false; got ${describe(o.strictModels)}.`);
  }
  const store = o.store === undefined ? memoryStore() : o.store;
  if (typeof store !== "object" || store === null) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `store must implement the Store interface (e.g. sqliteStore(path)); got ${describe(store)}.`,
    );
  }
  const missing = STORE_METHODS.filter(
    (name) => typeof (store as unknown as Record<string, unknown>)[name] !== "function",
  );
  if (missing.length > 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `store does not implement the Store interface: it has no method ${missing.join(", ")}. ` +
        `A Store has ${STORE_METHODS.join(", ")} (see memoryStore() or sqliteStore(path)).`,
    );
  }
  // A store that keeps chats in this process (the memory store) keeps their messages either way:
  // unloading would only trade the engine's memory for a rebuild on the next use.
  const maxOpenChats = given ?? (internalsOf(store) ? Infinity : DEFAULT_MAX_OPEN_CHATS);
  return {
    store,
    counter: o.counter ?? "exact",
    maxOpenChats,
    summaries,
    embedder,
    toolResults,
    reasoningTurns,
    calibration: new Calibration(o.calibration === undefined ? undefined : checkState(o.calibration)),
    // Left out, the built-in embedder works lazily (a chat is embedded once recall reads it); asked for, on every
    // append.
    embedEagerly: o.recall !== undefined,
    strictModels: o.strictModels ?? false,
    onCompaction: checkCompactionListener(o.onCompaction),
    memoryScope: checkMemoryScope(o.memoryScope, "Loom.open(options).memoryScope"),
  };
}
