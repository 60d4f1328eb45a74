// What the engines throw when the core refuses a call (one wording for both), cannot grow, or cannot load.
import { CtxloomError } from "../errors.js";
import type { CoreExports } from "./core-exports.js";
import { SUMMARY_NOT_ANCESTOR, SUMMARY_OF_SUMMARY_NODE, SUMMARY_OVERLAP, SUMMARY_SPLITS_UNIT } from "./layout.js";

/** The INVALID_ARGUMENT error for an attachSummary refusal code (a negative return of the core). */
export function summaryRefused(code: number, first: number, last: number): CtxloomError {
  const run = `the run [${first}..${last}]`;
  const why =
    code === SUMMARY_OF_SUMMARY_NODE
      ? `${run} must start and end at messages, not at summary nodes: to summarize a summary, cover the whole run ` +
        `it stands for`
      : code === SUMMARY_NOT_ANCESTOR
        ? `message ${first} is not an ancestor of message ${last} (or ${last} itself): a summary covers a stretch ` +
          `of one branch`
        : code === SUMMARY_OVERLAP
          ? `${run} shares messages with an earlier summary without holding its whole run: cover that summary's run ` +
            `whole, or none of it`
          : code === SUMMARY_SPLITS_UNIT
            ? `${run} would cut a tool unit (an assistant message with tool calls and the results answering it): ` +
              `start it at no tool result and end it where no call is left open`
            : `the engine refused ${run} (code ${code})`;
  return new CtxloomError("INVALID_ARGUMENT", `Cannot attach a summary: ${why}.`);
}

/** What `Loom.open({ wasm })` accepts: a compiled module (Workers, bundlers) or the `.wasm` bytes. */
export type WasmSource = WebAssembly.Module | ArrayBuffer | ArrayBufferView;

/** The core's exports, from a compiled module or its bytes. @throws WASM_UNAVAILABLE */
export async function instantiateCore(source: WasmSource): Promise<CoreExports> {
  try {
    const instance =
      source instanceof WebAssembly.Module
        ? await WebAssembly.instantiate(source, {})
        : (await WebAssembly.instantiate(source as BufferSource, {})).instance;
    return instance.exports as unknown as CoreExports;
  } catch (cause) {
    throw new CtxloomError(
      "WASM_UNAVAILABLE",
      `The WebAssembly core could not be instantiated (${String(cause)}). On runtimes that forbid ` +
        `compiling bytes (Cloudflare Workers), pass the precompiled module: Loom.open({ wasm }), ` +
        `or use Loom.open({ engine: "js" }).`,
      { cause },
    );
  }
}

/** OUT_OF_MEMORY: the WASM engine's memory could not grow to `what`. */
export function outOfMemory(what: string): CtxloomError {
  return new CtxloomError(
    "OUT_OF_MEMORY",
    `The WASM engine could not grow its memory to ${what}. Raise Loom.open({ maxMemoryMB }), ` +
      `delete or close chats you no longer need, or run with { engine: "js" }.`,
  );
}
