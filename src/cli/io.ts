// What a command is handed: the command's outside (CliIO), its parsed arguments, its store.
import { CtxloomError } from "../errors.js";
import type { Store } from "../store/types.js";

/** What the command reads and writes besides its arguments. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** stderr is a terminal: progress bars are drawn. */
  progress: boolean;
  openStore(dbPath: string): Promise<Store>;
  version: string;
  /** `ctxloom demo`, which prints on its own (with `json`, one JSON object of its figures). */
  demo?: (engine: "wasm" | "js" | undefined, json: boolean) => Promise<void>;
}

export interface CommandContext {
  io: CliIO;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** The store the Loom is open on (for the chat records: what a chat was imported from). */
  store: Store;
  usage(text: string): Error;
}

/** Turns an error that is no CtxloomError (a file that cannot be read...) into one naming what failed. */
export function inputError(what: string, e: unknown): CtxloomError {
  if (e instanceof CtxloomError) return e;
  const code = (e as { code?: string }).code;
  const reason =
    code === "ENOENT"
      ? "no such file"
      : code === "EISDIR"
        ? "it is a folder"
        : code === "EACCES"
          ? "permission denied"
          : (e as Error).message.replace(/[.!?]+$/, "");
  return new CtxloomError("INVALID_ARGUMENT", `cannot read ${what}: ${reason}.`, { cause: e });
}
