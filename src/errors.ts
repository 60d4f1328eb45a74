/**
 * Stable error codes. Code may branch on them; they never change meaning.
 * - INVALID_ARGUMENT: an option or argument has the wrong type or range.
 * - INVALID_ROLE / INVALID_PRIORITY / INVALID_CONTENT / INVALID_TOOL_CALL: a message is malformed.
 * - UNKNOWN_MESSAGE / UNKNOWN_CHAT / UNKNOWN_MODEL: a name or id that does not exist.
 * - WRONG_ROLE: the operation does not apply to a message of that role (edit a non-user message...).
 * - CHAT_DELETED / LOOM_CLOSED / WINDOW_DISPOSED: the object was deleted or closed; open a fresh one.
 * - MESSAGE_TOO_LARGE: a message cannot fit the model's window even alone.
 * - TOKENIZER_NOT_LOADED: a synchronous count needs an exact tokenizer that is not loaded yet.
 * - OUT_OF_MEMORY: the engine's memory could not grow (or hit `maxMemoryMB`).
 * - WASM_UNAVAILABLE: the WebAssembly core could not be loaded.
 * - STORE_CORRUPT: the store holds data the library cannot read back.
 * - STORE_FAILED: the store could not write a change; nothing was changed, retry it.
 */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "INVALID_ROLE"
  | "INVALID_PRIORITY"
  | "INVALID_CONTENT"
  | "INVALID_TOOL_CALL"
  | "UNKNOWN_MESSAGE"
  | "UNKNOWN_CHAT"
  | "UNKNOWN_MODEL"
  | "WRONG_ROLE"
  | "CHAT_DELETED"
  | "LOOM_CLOSED"
  | "WINDOW_DISPOSED"
  | "MESSAGE_TOO_LARGE"
  | "TOKENIZER_NOT_LOADED"
  | "OUT_OF_MEMORY"
  | "WASM_UNAVAILABLE"
  | "STORE_CORRUPT"
  | "STORE_FAILED";

/** The only error type ctxloom throws. `code` is stable; `message` says what to do. */
export class CtxloomError extends Error {
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

/** Throws INVALID_ARGUMENT unless `value` is a plain object (or undefined when optional). */
export function checkOptions<T extends object>(value: unknown, what: string): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} must be an object of options; got ${describe(value)}.`);
  }
  return value as Partial<T>;
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
  try {
    return await call();
  } catch (cause) {
    if (cause instanceof CtxloomError) throw cause;
    throw new CtxloomError(
      "STORE_FAILED",
      `The store failed on ${what} (${String(cause)}); nothing was changed. Check the store and retry.`,
      { cause },
    );
  }
}
