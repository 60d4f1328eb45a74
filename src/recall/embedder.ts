import { CtxloomError, checkInteger, describe } from "../errors.js";
import { withDeadline, type Deadline } from "../deadline.js";
import { checkWellFormed } from "../message.js";

/**
 * Turns texts into vectors for recall. ctxloom ships `hashingEmbedder()`, which needs nothing
 * and runs everywhere; any other model plugs in with the same shape, for example OpenAI's:
 *
 * ```ts
 * const embedder: Embedder = {
 *   name: "text-embedding-3-small",
 *   dimension: 1536,
 *   embed: async (texts, signal) =>
 *     (await client.embeddings.create({ model: "text-embedding-3-small", input: texts }, { signal })).data.map(
 *       (d) => d.embedding,
 *     ),
 * };
 * ```
 *
 * `embed` returns one vector per text, in order, each of `dimension` finite numbers. Vectors
 * need not be normalized: the index normalizes them. A call that has not answered after
 * `timeoutMs` (default 30,000) is given up: its `signal` aborts and the call counts as failed.
 * A build or a recall waits `recallTimeoutMs` (default 2,000, or `timeoutMs` when shorter) for its
 * query's vector and the messages queued before it; a build then recalls with what it has.
 */
export interface Embedder {
  /** The embedder's name: vectors are stored under it, and another name embeds the chats again. */
  readonly name: string;
  /** The length of its vectors. */
  readonly dimension: number;
  /**
   * Milliseconds a background `embed` call (the appended messages, in batches) may take before
   * it is aborted and counted as failed, then retried (default 30,000).
   */
  readonly timeoutMs?: number;
  /**
   * Milliseconds a request waits for the embedder: `buildContext({ recall })` and
   * `chat.recall()` wait this long for the query's vector and for the messages queued before
   * them. Past it a build recalls with what it has (the words of every message, the vectors
   * already made) and says so in `recallDegraded`; `chat.recall()` fails with EMBEDDER_FAILED
   * when the query has no vector. Default: 2,000 (or `timeoutMs` when shorter). A hosted
   * embedding API answers one short query in a few hundred milliseconds, and 2 s covers its
   * slow tail; past that an outage is likelier than an answer, and a request held longer costs
   * its user more than recall by words alone does.
   */
  readonly recallTimeoutMs?: number;
  /** Embeds texts, one vector per text in order; aborted through `signal` past the timeout. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[] | number[][]>;
}

/** The largest dimension an index takes (OpenAI's largest model has 3072). */
export const MAX_DIMENSION = 65536;

/** The default of `Embedder.timeoutMs`. */
export const DEFAULT_EMBED_TIMEOUT_MS = 30_000;

/** The default of `Embedder.recallTimeoutMs` (or `timeoutMs` when that is shorter). */
export const DEFAULT_RECALL_TIMEOUT_MS = 2_000;

/** How long a request waits for `embedder` (its recallTimeoutMs, see Embedder). */
export function recallTimeoutOf(embedder: Embedder): number {
  return (
    embedder.recallTimeoutMs ?? Math.min(DEFAULT_RECALL_TIMEOUT_MS, embedder.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS)
  );
}

/** Throws INVALID_ARGUMENT unless `embedder` has a name, a dimension and an embed function. */
export function checkEmbedder(embedder: unknown): Embedder {
  const e = embedder as Partial<Embedder> | null;
  if (e === null || typeof e !== "object" || typeof e.embed !== "function" || typeof e.name !== "string") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `An embedder must be { name, dimension, embed(texts, signal) } (for example hashingEmbedder()); got ` +
        `${describe(embedder)}.`,
    );
  }
  checkWellFormed(e.name, "An embedder's name (vectors are stored under it)", "INVALID_ARGUMENT");
  if (e.name.trim() === "") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `An embedder needs a non-empty name: vectors are stored under it, and a chat reopened with another embedder ` +
        `is embedded again.`,
    );
  }
  checkInteger(e.dimension, `The dimension of embedder "${e.name}"`, 1, MAX_DIMENSION);
  if (e.timeoutMs !== undefined) checkInteger(e.timeoutMs, `The timeoutMs of embedder "${e.name}"`, 1, 2 ** 30);
  if (e.recallTimeoutMs !== undefined)
    checkInteger(e.recallTimeoutMs, `The recallTimeoutMs of embedder "${e.name}"`, 1, 2 ** 30);
  return e as Embedder;
}

function failed(embedder: Embedder, what: string, cause?: unknown): CtxloomError {
  return new CtxloomError(
    "EMBEDDER_FAILED",
    `Embedder "${embedder.name}" ${what}; nothing was changed. Check the embedder (or its service) and retry.`,
    cause === undefined ? undefined : { cause },
  );
}

/** How an embedder call ended: its vectors packed row after row, or why not (see embedTexts). */
export type Embedded =
  | { ok: true; vectors: Float32Array }
  | { ok: false; why: "timeout" | "aborted" | "failed"; error: CtxloomError };

/**
 * Embeds `texts` and checks what comes back: one vector per text, each of the embedder's
 * dimension, every number finite. Returns them packed row after row (texts.length *
 * dimension floats). Throws EMBEDDER_FAILED when the embedder throws, does not answer within
 * its `timeoutMs`, is aborted through `signal`, or returns anything else (a call given up
 * is not waited for), INVALID_ARGUMENT when `texts` is not an array of strings.
 */
export async function embedTexts(
  embedder: Embedder,
  texts: readonly string[],
  signal?: AbortSignal,
): Promise<Float32Array> {
  const ended = await tryEmbedTexts(embedder, texts, signal);
  if (!ended.ok) throw ended.error;
  return ended.vectors;
}

/**
 * embedTexts, telling how a failure came: "timeout" (no answer within `limit`, by default the
 * embedder's timeoutMs), "aborted" (through `signal`), "failed" (it threw or answered badly).
 * Rejects only on bad arguments (INVALID_ARGUMENT).
 */
export async function tryEmbedTexts(
  embedder: Embedder,
  texts: readonly string[],
  signal?: AbortSignal,
  limit?: { ms: number; setting: "timeoutMs" | "recallTimeoutMs" },
): Promise<Embedded> {
  checkEmbedder(embedder);
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) {
    throw new CtxloomError("INVALID_ARGUMENT", `Texts to embed must be an array of strings; got ${describe(texts)}.`);
  }
  const dim = embedder.dimension;
  const out = new Float32Array(texts.length * dim);
  if (texts.length === 0) return { ok: true, vectors: out };
  const timeoutMs = limit?.ms ?? embedder.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
  const fail = (what: string, cause?: unknown): Embedded => ({
    ok: false,
    why: "failed",
    error: failed(embedder, what, cause),
  });
  let ended: Deadline<unknown>;
  try {
    ended = await withDeadline((abort) => embedder.embed([...texts], abort), timeoutMs, signal);
  } catch (cause) {
    return fail(`threw (${String(cause)})`, cause);
  }
  if (!ended.ok) {
    const what =
      ended.why === "timeout"
        ? `did not answer within ${timeoutMs} ms (its ${limit?.setting ?? "timeoutMs"}), and was aborted`
        : `was aborted (${String(ended.reason)})`;
    return { ok: false, why: ended.why, error: failed(embedder, what, ended.reason) };
  }
  const vectors = ended.value;
  if (!Array.isArray(vectors)) return fail(`returned ${describe(vectors)} instead of an array of vectors`);
  if (vectors.length !== texts.length) return fail(`returned ${vectors.length} vectors for ${texts.length} texts`);
  for (let i = 0; i < vectors.length; i++) {
    const v = vectors[i] as unknown;
    if (!(v instanceof Float32Array || v instanceof Float64Array || Array.isArray(v))) {
      return fail(`returned ${describe(v)} as vector ${i}, not an array of numbers`);
    }
    const row = v as ArrayLike<unknown>;
    if (row.length !== dim)
      return fail(`returned a vector of ${row.length} numbers for text ${i}; its dimension is ${dim}`);
    for (let j = 0; j < dim; j++) {
      const x = row[j];
      // A finite double can still overflow f32 (1e39 becomes Infinity): check what is stored.
      const stored = typeof x === "number" ? Math.fround(x) : NaN;
      if (!Number.isFinite(stored))
        return fail(`returned ${String(x)} at position ${j} of vector ${i} (numbers must be finite f32)`);
      out[i * dim + j] = stored;
    }
  }
  return { ok: true, vectors: out };
}
