// "#ctxloom/bpe-file" under the node condition (Node, Bun): the BPE counter's module files read
// from disk beside the JS. The file system is reached through process.getBuiltinModule (Node
// 20.16+) so that nothing in the core imports a Node module (see ../bpe-file.ts).
import type { BpeFileLoader } from "./bpe-files.js";

/**
 * A module file compiled, from dist/ beside dist/tokens/.
 * @throws when this Node has no process.getBuiltinModule (before 20.16) or the file cannot be read
 */
export const loadBpeFile: BpeFileLoader | undefined = async (file) => {
  const url = new URL(`../${file}`, import.meta.url);
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  if (typeof host.process?.getBuiltinModule !== "function") {
    throw new Error(
      "this Node has no process.getBuiltinModule to read the module's file with (Node 20.16 or later has)",
    );
  }
  const fs = host.process.getBuiltinModule("fs") as { readFileSync(path: URL): Uint8Array<ArrayBuffer> };
  return WebAssembly.compile(fs.readFileSync(url));
};
