/**
 * The Loom, the entry point: its engine, store and open chats, users' lists, sliding windows, calibration, prune,
 * stats, flush and close. What its options take, checked, lives in loom-settings.ts.
 */
import { CtxloomError, checkOptions, fromStore } from "../errors.js";
import { createEngine, type EngineKind } from "../engine/index.js";
import type { Engine } from "../engine/types.js";
import type { Store } from "../store/types.js";
import { getModelProfile } from "../models/profiles.js";
import { checkLabel } from "../message.js";
import { counterFor, type CounterMode } from "../models/counting.js";
import type { CalibrationState } from "../models/calibration.js";
import { exactCounterState, useBpeSource } from "../tokens/index.js";
import { SlidingWindow, type WindowOptions } from "../context/sliding-window.js";
import { OpenChats } from "./open-chats.js";
import type { LoomContext } from "./sync.js";
import { UserChats } from "./user-chats.js";
import { openKey } from "./chat-cache.js";
import { RecallHub } from "../recall/hub.js";
import type { LoomOptions, LoomStats } from "./loom-options.js";
import { MemoryCache } from "../memory/cache.js";
import { MEMORY_METHODS, type MemoryStore } from "../memory/types.js";
import { prune, type PruneOptions, type PruneReport } from "./retention.js";
import { LOOM_KEYS, loomSettings, openSettings, type LoomSettings } from "./loom-settings.js";

export type { LoomOptions, LoomRecallOptions, LoomStats } from "./loom-options.js";

export { DEFAULT_MAX_OPEN_CHATS } from "./loom-settings.js";

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
    const { settings, bpeSources } = openSettings(o);
    for (const source of bpeSources) await useBpeSource(source);
    return new Loom(await createEngine(o), settings);
  }

  /**
   * @internal `Loom.open()` on an engine the caller made (tests and benchmarks count its calls):
   * the options are checked as `open` checks them; `engine`, `wasm` and `maxMemoryMB` are the engine's.
   */
  static withEngine(engine: Engine, options?: LoomOptions): Loom {
    return new Loom(engine, loomSettings(checkOptions<LoomOptions>(options, "Loom.withEngine(options)", LOOM_KEYS)));
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
