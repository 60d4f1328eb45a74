import { CtxloomError, checkInteger, checkOptions, describe, fromStore } from "../errors.js";
import { createEngine, type EngineKind } from "../engine/index.js";
import type { Engine } from "../engine/types.js";
import { memoryStore } from "../store/memory.js";
import { internalsOf } from "../store/internal.js";
import { STORE_METHODS, type Store } from "../store/types.js";
import { getModelProfile } from "../models/profiles.js";
import { checkLabel } from "../message.js";
import { counterFor, type CounterMode } from "../models/counting.js";
import { Calibration, checkState, type CalibrationState } from "../models/calibration.js";
import { exactCounterState, useBpeSource } from "../tokens/index.js";
import { SlidingWindow, type WindowOptions } from "../context/sliding-window.js";
import { OpenChats } from "./open-chats.js";
import type { LoomContext } from "./sync.js";
import { UserChats } from "./user-chats.js";
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
import type { LoomOptions, LoomRecallOptions, LoomStats } from "./loom-options.js";
import { MemoryCache } from "../memory/cache.js";
import { MEMORY_METHODS, type MemoryStore } from "../memory/types.js";
import { checkMemoryScope } from "../context/build-plan.js";
import type { MemoryScope } from "../context/types.js";
import { prune, type PruneOptions, type PruneReport } from "./retention.js";
import { openKey } from "./user-chats.js";

export type { LoomOptions, LoomRecallOptions, LoomStats } from "./loom-options.js";

/** What a Loom keeps of its options, checked: everything but its engine. */
interface LoomSettings {
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

const LOOM_KEYS = [
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
 * The entry point: an engine (the WASM core, or its TypeScript twin) and a store.
 * One Loom serves any number of users and chats.
 */
export class Loom {
  readonly #engine: Engine;
  readonly #store: Store;
  readonly #open: OpenChats;
  readonly #ctx: LoomContext;
  readonly #windows = new Set<SlidingWindow>();
  readonly #recall: RecallHub | null;
  readonly #counter: CounterMode;
  #closed = false;

  // Private: Loom.open() makes Looms (the published types show `private constructor()`, no parameters).
  private constructor(engine: Engine, settings: LoomSettings) {
    const {
      store,
      counter,
      maxOpenChats,
      summaries,
      embedder,
      toolResults,
      reasoningTurns,
      embedEagerly,
      strictModels,
      onCompaction,
      calibration,
      memoryScope,
    } = settings;
    this.#engine = engine;
    this.#counter = counter;
    this.#recall = embedder ? new RecallHub(engine, store, embedder, embedEagerly) : null;
    this.#store = store;
    this.#open = new OpenChats(maxOpenChats);
    this.#ctx = {
      engine,
      store,
      strictModels,
      prepare: async (model) => {
        const profile = getModelProfile(model, { strict: strictModels });
        return { profile, counter: await counterFor(profile, counter) };
      },
      checkOpen: () => {
        if (this.#closed)
          throw new CtxloomError("LOOM_CLOSED", "This Loom was closed; open a new one with Loom.open().");
      },
      summaries,
      recall: this.#recall,
      toolResults,
      reasoningTurns,
      calibration,
      memory: {
        cache: MEMORY_METHODS.every((m) => typeof (store as unknown as Record<string, unknown>)[m] === "function")
          ? new MemoryCache(store as MemoryStore)
          : null,
        storeName: typeof store.name === "string" ? store.name : "given",
        checkOpen: () => this.#ctx.checkOpen(),
      },
      ...(memoryScope ? { memoryScope } : {}),
      ...(onCompaction ? { onCompaction } : {}),
    };
  }

  /**
   * Opens a Loom. With no options: the WASM engine (falling back to the JS engine where
   * WebAssembly cannot load) and an in-memory store.
   * @throws INVALID_ARGUMENT for unknown option values; WASM_UNAVAILABLE when `engine: "wasm"`, or the core given as
   * `wasm`, cannot load
   */
  static async open(options?: LoomOptions): Promise<Loom> {
    const o = checkOptions<LoomOptions>(options, "Loom.open(options)", LOOM_KEYS);
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
    const settings = Loom.#settings(o);
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
    for (const source of bpeSources) await useBpeSource(source);
    return new Loom(await createEngine(o), settings);
  }

  /**
   * @internal `Loom.open()` on an engine the caller made (tests and benchmarks count its calls):
   * the options are checked as `open` checks them; `engine`, `wasm` and `maxMemoryMB` are the engine's.
   */
  static withEngine(engine: Engine, options?: LoomOptions): Loom {
    return new Loom(engine, Loom.#settings(checkOptions<LoomOptions>(options, "Loom.withEngine(options)", LOOM_KEYS)));
  }

  /** What a Loom keeps of its options (all but the engine's), checked. */
  static #settings(o: LoomOptions): LoomSettings {
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
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `strictModels must be true or false; got ${describe(o.strictModels)}.`,
      );
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

  /** Which engine runs: "wasm" or "js". */
  get engine(): EngineKind {
    return this.#engine.kind;
  }

  /** @internal The engine itself, for tests and benchmarks. */
  get engineImpl(): Engine {
    return this.#engine;
  }

  /**
   * A user's chats. Cheap: call it per request.
   * @throws INVALID_ARGUMENT when userId is not a non-empty, well-formed string (stores keep it)
   */
  user(userId: string): UserChats {
    this.#ctx.checkOpen();
    return new UserChats(this.#ctx, this.#open, checkLabel(userId, "userId"));
  }

  /**
   * A standalone sliding window of `maxTokens`, on the engine's selection core.
   * Call `close()` when done with it (closing the Loom closes it too).
   * @throws INVALID_ARGUMENT for a bad maxTokens or counter
   */
  slidingWindow(options: WindowOptions): SlidingWindow {
    this.#ctx.checkOpen();
    const win: SlidingWindow = new SlidingWindow(this.#engine, options, () => this.#windows.delete(win));
    this.#windows.add(win);
    return win;
  }

  /**
   * What the Loom learned of its models' counts from what providers reported
   * (`chat.observeUsage`): JSON to keep where the app keeps its settings, and to hand back as
   * `Loom.open({ calibration })`, so that a restarted server budgets as calibrated at once.
   */
  exportCalibration(): CalibrationState {
    return this.#ctx.calibration.export();
  }

  /**
   * Removes the chats idle past `idleFor` ms, or past the newest `keepNewest` of their user (or
   * both), from the store, in batches of `batchSize` (each one store transaction, with a turn of
   * the event loop between them, so that a server keeps answering), and the ones this Loom holds.
   * A chat written while the prune runs is kept. Returns what was removed.
   * @throws INVALID_ARGUMENT for bad options or a store without pruneChats; STORE_FAILED
   * @example await loom.prune({ idleFor: 90 * 86_400_000, keepNewest: 200 })
   */
  async prune(options: PruneOptions): Promise<PruneReport> {
    this.#ctx.checkOpen();
    return prune(this.#ctx, options, (userId, chatId) => this.#open.retire(openKey(userId, chatId)));
  }

  /** Counters of the Loom: recall's embedded, pending, failed and retried embeddings. */
  stats(): LoomStats {
    this.#ctx.checkOpen();
    const exact = exactCounterState();
    return {
      recall: this.#recall ? this.#recall.stats() : null,
      counter: this.#counter === "heuristic" ? "heuristic" : exact.counter,
      counterFallback: this.#counter === "heuristic" ? null : exact.fallback,
    };
  }

  /**
   * Makes every change acknowledged so far durable (the store's flush: a batching store
   * commits), after embedding the messages waiting for it (one try: a failing embedder's
   * messages stay queued, see `stats()`; one that does not answer is given up after its
   * `timeoutMs`, and the store is flushed all the same). @throws STORE_FAILED
   */
  async flush(): Promise<void> {
    this.#ctx.checkOpen();
    await this.#recall?.queue.flush();
    await fromStore("flushing", () => this.#store.flush());
  }

  /**
   * Closes the Loom: changes already called land, then the chats and windows are freed and
   * the store is flushed and closed. Calls made after `close()` throw LOOM_CLOSED. An
   * embedder call under way is aborted, not awaited (a build or recall waiting on it
   * rejects with LOOM_CLOSED); a summarizer under way is not awaited either.
   * @throws STORE_FAILED when the store cannot flush or close (the Loom is closed all the same)
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const entries = this.#open.clear();
    for (const win of [...this.#windows]) win.close();
    // First: embedder calls under way are aborted, so that no chat waits on one that never answers
    // (a build or recall that needed it fails with LOOM_CLOSED). Messages not embedded yet are
    // embedded when recall next reads their chat (in any Loom): the store holds no vector for them.
    this.#recall?.close();
    await Promise.all(
      entries.map(async (loading) => {
        // Waits for a load or a create under way (its store write lands before the store closes).
        const chat = await loading.catch(() => undefined);
        await chat?.retire().catch(() => undefined);
      }),
    );
    try {
      await fromStore("flushing", () => this.#store.flush());
    } finally {
      await fromStore("closing", () => this.#store.close());
    }
  }
}
