/**
 * Stable error codes. Code may branch on them; they never change meaning. docs/errors.md is
 * written from this list (`node scripts/errors-doc.mjs`): one entry per code.
 * - INVALID_ARGUMENT: an option or argument has the wrong type or range, or an option key is unknown.
 * - INVALID_ROLE: a message's role is not one of system, user, assistant, tool.
 * - INVALID_PRIORITY: a message's priority is not one of low, normal, high, critical.
 * - INVALID_CONTENT: a message's content or one of its parts is malformed (unknown keys, bad sources
 *   and sizes), or a text holds a lone surrogate no store can keep.
 * - INVALID_TOOL_CALL: a new tool call a provider would refuse: a name outside 1 to 64 letters, digits,
 *   `_` or `-`, arguments that are not JSON text or nest past 100 levels, a key other than `id`,
 *   `type`, `function` and its `name`, `arguments`; or a tool result that answers no open call.
 * - UNKNOWN_MESSAGE: no message of that id in the chat.
 * - UNKNOWN_CHAT: the user has no chat of that id.
 * - CHAT_EXISTS: `chats.create({ id })` with an id the user has a chat of already; open it instead.
 * - UNKNOWN_MODEL: a model name of no known family, or one the catalog lacks where models are
 *   strict (`strictModels`); the message names close matches.
 * - WRONG_ROLE: the operation does not apply to a message of that role (edit of a non-user message,
 *   regenerate of a non-assistant one, a checkout or redact of a summary, a read of a page of a
 *   message that is no tool result).
 * - CHAT_DELETED: the chat was deleted (or its user erased, or the chat pruned); open a fresh one.
 * - CHAT_UNLOADED: a synchronous read of a chat that was unloaded from memory (past `maxOpenChats`) whose store
 *   is not in this process; `await chats.open(id)` or `await chat.refresh()` reloads it.
 * - LOOM_CLOSED: the Loom was closed; open a new one.
 * - WINDOW_CLOSED: the sliding window was closed; make a new one.
 * - MESSAGE_TOO_LARGE: a message cannot fit the model's window even alone, or is larger than a row of
 *   its store can hold (a Durable Object's 2 MB); retrying cannot help.
 * - OPEN_TOOL_CALLS: a user, assistant or system message was appended while tool calls above it
 *   still have no result; append a tool result for each, or call `chat.cancelToolCalls()`.
 * - COUNTER_NOT_LOADED: a synchronous count needs an exact counter that is not loaded yet
 *   (`await loadTokenizer(model)` once).
 * - OUT_OF_MEMORY: the engine's memory could not grow (or hit `Loom.open({ maxMemoryMB })`).
 * - WASM_UNAVAILABLE: the WebAssembly core could not be loaded (`engine: "wasm"`, or a core passed in
 *   `wasm`), or exact counting was asked where neither the WebAssembly counter nor gpt-tokenizer loads.
 * - STORE_CORRUPT: the store holds data the library cannot read back (a file ctxloom did not write, a
 *   damaged one, or one a newer release wrote); nothing of it was changed.
 * - STORE_FAILED: the store could not write a change; nothing was changed, retry it.
 * - STORE_OUTCOME_UNKNOWN: the connection to the store was lost after an append was sent, and a retry
 *   failed too, so it may or may not have been stored; retry it with the same key (the message names
 *   it): a message stored under that key is returned, never appended twice.
 * - IMPORT_FAILED: a file to import is in no known format or is broken; nothing was imported.
 * - EMBEDDER_FAILED: an embedder threw, did not answer within its `timeoutMs` (`recallTimeoutMs` for
 *   `chat.recall`'s query), or returned the wrong count, dimension or non-finite numbers; nothing was
 *   changed. A build does not fail for it: it recalls by words and says so in `recallDegraded`.
 * - UNSUPPORTED_CONTENT: an SDK object (a message, block, part or item) holds something a chat message cannot
 *   carry (audio, an uploaded file's id, a provider-executed tool...); it is refused, never dropped silently.
 * - UNSUPPORTED_TOOL: a tool whose cost in a request its provider does not publish (an OpenAI custom tool, a
 *   built-in tool such as a web search, an AI SDK provider tool); leave it out of `tools` and keep room for it.
 * - UNSUPPORTED_RUNTIME: an entry point that cannot run on this runtime (ctxloom/sqlite on Deno, Workers or
 *   a browser); the message names the runtime and the stores that run there.
 * - MEMORY_CONFLICT: a memory write named a revision older than the memory's, and documents it changes (or keys of
 *   its object) were written since; nothing was written: read the memory again and redo the change.
 * - MEMORY_TOO_LARGE: a memory document past its size cap, or a memory past its count of documents;
 *   nothing was written.
 * - INVALID_PATH: a memory document's path (or a memory tool's, under /memories) outside the memory or not a safe name.
 * - UNKNOWN_PATH: no memory document or folder at that path; nothing was written.
 * - PATH_EXISTS: a memory document or folder at that path already; nothing was written.
 * - INVALID_SCHEMA: a typed memory object's JSON schema uses what ctxloom's subset does not read, or is malformed.
 * - SCHEMA_MISMATCH: a typed memory object (or an update of one) that its schema does not admit; nothing was written.
 */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "INVALID_ROLE"
  | "INVALID_PRIORITY"
  | "INVALID_CONTENT"
  | "INVALID_TOOL_CALL"
  | "UNKNOWN_MESSAGE"
  | "UNKNOWN_CHAT"
  | "CHAT_EXISTS"
  | "UNKNOWN_MODEL"
  | "WRONG_ROLE"
  | "CHAT_DELETED"
  | "CHAT_UNLOADED"
  | "LOOM_CLOSED"
  | "WINDOW_CLOSED"
  | "MESSAGE_TOO_LARGE"
  | "OPEN_TOOL_CALLS"
  | "COUNTER_NOT_LOADED"
  | "OUT_OF_MEMORY"
  | "WASM_UNAVAILABLE"
  | "STORE_CORRUPT"
  | "STORE_FAILED"
  | "STORE_OUTCOME_UNKNOWN"
  | "IMPORT_FAILED"
  | "EMBEDDER_FAILED"
  | "UNSUPPORTED_CONTENT"
  | "UNSUPPORTED_TOOL"
  | "UNSUPPORTED_RUNTIME"
  | "MEMORY_CONFLICT"
  | "MEMORY_TOO_LARGE"
  | "INVALID_PATH"
  | "UNKNOWN_PATH"
  | "PATH_EXISTS"
  | "INVALID_SCHEMA"
  | "SCHEMA_MISMATCH";

/** The only error type ctxloom throws. `code` is stable; `message` says what to do. */
export class CtxloomError extends Error {
  /** What went wrong, as a stable code to branch on (see docs/errors.md). */
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CtxloomError";
    this.code = code;
  }
}

/** Throws INVALID_ARGUMENT unless `value` is an integer in [min, max]. */
export function checkInteger(value: unknown, what: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be ${range}; got ${describe(value)}.`);
  }
  return value;
}

/**
 * Throws INVALID_ARGUMENT unless `value` is a plain object (or undefined when optional).
 * With `known`, also refuses any key not in it, naming the closest known key: an option
 * misspelled is never silently ignored.
 */
export function checkOptions<T extends object>(value: unknown, what: string, known?: readonly string[]): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be an object of options; got ${describe(value)}.`);
  }
  if (known) checkKeys(value, known, what);
  return value as Partial<T>;
}

/** Throws INVALID_ARGUMENT naming the first key of `value` that is not in `known`, and the closest known one. */
export function checkKeys(value: object, known: readonly string[], what: string): void {
  // for-in, not Object.keys: no array per call (every append and build checks its options).
  for (const key in value) {
    if (!Object.hasOwn(value, key) || known.includes(key)) continue;
    const hint = closest(key, known);
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} has no option ${JSON.stringify(key)}` +
        (hint
          ? `; did you mean ${JSON.stringify(hint)}?`
          : `; the options are ${known.map((k) => JSON.stringify(k)).join(", ")}.`),
    );
  }
}

/** The known name nearest to `key` by edit distance (case-insensitive), or undefined when none is near. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const d = editDistance(key.toLowerCase(), name.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/** Levenshtein distance between two strings. */
export function editDistance(a: string, b: string): number {
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

/** A short, safe rendering of a bad value for error messages. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? value.slice(0, 40) + "..." : value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return String(value);
}

/** Runs a store call; its failure becomes STORE_FAILED naming `what` (CtxloomErrors pass through unchanged). */
export async function fromStore<T>(what: string, call: () => T | Promise<T>): Promise<T> {
  return fromStoreNow(what, call);
}

/**
 * `fromStore` without a promise of its own: a store that answers at once (the in-memory one,
 * SQLite) is answered at once, a promise is returned as one (its rejection mapped the same way).
 */
export function fromStoreNow<T>(what: string, call: () => T | Promise<T>): T | Promise<T> {
  let result: T | Promise<T>;
  try {
    result = call();
  } catch (cause) {
    throw storeFailure(what, cause);
  }
  if (result !== null && typeof (result as { then?: unknown } | undefined)?.then === "function") {
    return Promise.resolve(result).catch((cause: unknown) => {
      throw storeFailure(what, cause);
    });
  }
  return result;
}

function storeFailure(what: string, cause: unknown): Error {
  if (cause instanceof CtxloomError) return cause;
  return new CtxloomError(
    "STORE_FAILED",
    `The store failed on ${what} (${String(cause)}); nothing was changed. Check the store and retry.`,
    { cause },
  );
}
