import type { EngineOptions } from "../engine/index.js";
import type { Store } from "../store/types.js";
import type { CounterMode } from "../models/counting.js";
import type { SummaryOptions } from "../summary/policy.js";
import type { Embedder } from "../recall/embedder.js";
import type { RecallStats } from "../recall/hub.js";
import type { ToolResultOptions } from "../models/tool-results.js";
import type { CompactionListener } from "./compaction.js";
import type { ReasoningTurns } from "../models/reasoning.js";
import type { CalibrationState } from "../models/calibration.js";
import type { MemoryScope } from "../context/types.js";

/** Options of `Loom.open()`. */
/** A counter module as `Loom.open({ bpe })` takes it: compiled, its bytes, or its URL. */
export type BpeModuleSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView | URL;

/** What `Loom.open()` takes: the engine, the store, the model defaults and the groups of settings chats inherit. */
export interface LoomOptions extends EngineOptions {
  /**
   * What an earlier Loom learned of its models' counts from providers' reports
   * (`loom.exportCalibration()`): budgets calibrated from the first request.
   */
  calibration?: CalibrationState;
  /**
   * The exact token counter's modules, where the files beside the JS are out of reach (an esbuild
   * bundle, a Worker built without the workerd condition): `import bpe from "ctxloom/bpe.wasm"`
   * (o200k_base; a WebAssembly.Module where .wasm imports are compiled modules), its bytes, or its
   * URL; a list for more than one ("ctxloom/bpe-cl100k.wasm" for cl100k_base,
   * "ctxloom/bpe-vocab.wasm" for vocabularies registered at run time). One encoding a module: a
   * Worker ships only the tables it counts with. One that cannot load is refused (WASM_UNAVAILABLE).
   */
  bpe?: BpeModuleSource | readonly BpeModuleSource[];
  /** Where chats persist; default: in memory (lost when the process ends). */
  store?: Store;
  /**
   * "exact" (default): count with the model's own encoding where it is known (loaded on
   * first use); "heuristic": always the profile's tokens-per-character estimate.
   */
  counter?: CounterMode;
  /**
   * How many chats stay loaded in memory (default 1000 on a store outside the process; no
   * limit on the in-memory store, which keeps every message in memory anyway). Past it the
   * least recently used chats free their engine memory (down to the limit less a sixteenth);
   * the store keeps them, and each reloads on its next use.
   */
  maxOpenChats?: number;
  /**
   * Summaries for every chat of this Loom: true (on, the defaults), false (off), or settings
   * (`trigger`, `select`, `maxTokens`, `timeoutMs`, `presentation`, and the Loom's own `summarizer`
   * and `prompt`). Off by default; a chat's (`create({ summaries })`) and a call's
   * (`buildContext({ summaries })`) settings win, field by field. See SummaryOptions.
   */
  summaries?: boolean | SummaryOptions;
  /**
   * Recall: `{ embedder }` (an Embedder, see `hashingEmbedder()`), true for the built-in
   * hashing embedder, false to turn recall off. Given (an object or true), appended messages
   * are embedded in the background, in batches. Left out, recall uses the built-in embedder
   * lazily: nothing is embedded until recall first reads a chat, which then embeds what that
   * chat lacks, and its later appends in the background (a server that never recalls pays
   * nothing). Vectors persist in the store under the embedder's name and dimension.
   */
  recall?: boolean | LoomRecallOptions;
  /**
   * How every chat's contexts send tool results: `truncate` (default on: a result past a quarter
   * of the request is sent cut to its head and tail) and `clear` (default off: older results sent
   * as a placeholder naming their message). A chat's (`create({ toolResults })`) and a build's
   * settings win, key by key. The chats keep every result whole.
   */
  toolResults?: ToolResultOptions;
  /**
   * Told, synchronously, when a chat summarizes (before the summarizer is called and once the
   * summary is stored: by its policy or `chat.compact()`) and when a context clears tool results
   * the chat's previous one sent whole. What it throws fails the call that caused it.
   */
  onCompaction?: CompactionListener;
  /**
   * How many of the newest turns send their reasoning in every chat's contexts (a count or
   * "all"; default 1): older turns' thinking blocks and reasoning items are left out, the chats
   * keep them. A chat's (`create({ reasoningTurns })`) and a build's setting win.
   */
  reasoningTurns?: ReasoningTurns;
  /**
   * Which working memory every chat's contexts carry: "user" (the user's, `loom.user(id).memory`:
   * the default), "chat" (each chat's own, `chat.memory`) or "none". A chat's
   * (`create({ memoryScope })`) and a build's setting win.
   */
  memoryScope?: MemoryScope;
  /**
   * Refuse model names the catalog lacks (UNKNOWN_MODEL), in create, open, import and
   * buildContext({ model }), instead of reading them by their family with a warning. Default false.
   */
  strictModels?: boolean;
}

/** `Loom.open({ recall })`. */
export interface LoomRecallOptions {
  /** What embeds messages; default the built-in `hashingEmbedder()`. */
  embedder?: Embedder;
}

/** What `loom.stats()` returns. */
export interface LoomStats {
  /** Recall's embedding counters, or null when the Loom was opened with `recall: false`. */
  recall: RecallStats | null;
  /**
   * The token counter in use: "wasm" (ctxloom's exact WebAssembly counter), "gpt-tokenizer"
   * (the exact fallback where that module could not load; `counterFallback` says why),
   * "heuristic" (`counter: "heuristic"`), or null before the first exact count loads one.
   * Models with a counter of their own or no known encoding count with those.
   */
  counter: "wasm" | "gpt-tokenizer" | "heuristic" | null;
  /** Why the WebAssembly counter did not load, when gpt-tokenizer counts in its place; else null. */
  counterFallback: string | null;
}
