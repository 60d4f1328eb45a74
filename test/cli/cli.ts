// The command in process, against a store the caller keeps (as separate invocations share the SQLite file).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../../src/cli/run.js";
import { memoryStore } from "../../src/store/memory.js";
import type { Store } from "../../src/store/types.js";

export const dir = mkdtempSync(join(tmpdir(), "ctxloom-cli-"));

/** Writes `text` to a file of that name in a temporary folder; returns its path. */
export function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** Runs `ctxloom <args>`: its exit code, and what it wrote to stdout and stderr. */
export async function cli(args: string[], store: Store = memoryStore(), progress = false) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    progress,
    openStore: async () => store,
    version: "9.9.9",
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
