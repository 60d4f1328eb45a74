// "#ctxloom/bpe-file" under the workerd condition: no file to load. Workers refuse to compile
// bytes at run time; the workerd entry hands the module over precompiled (provideBpeModule).
// Nothing else rides along: no fetch, no Node or Deno path (see ../bpe-file.ts).
import type { BpeFileLoader } from "./bpe-files.js";

export const loadBpeFile: BpeFileLoader | undefined = undefined;
