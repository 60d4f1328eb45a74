// Byte offsets of the core's data, mirrored from assembly/arena.ts (see its diagram).
// The wrapper reads single fields through views instead of calling into WASM: a call
// per field costs more than the read itself.

/** Column offsets, in units of the tree's capacity C: column address = block + (offset << capLog2). */
export const COL_PARENT = 0;
export const COL_CHILD = 4;
export const COL_SIBLING = 8;
export const COL_TOKENS = 28;
export const COL_META = 32;

/** The meta column packs depth:24, role:2, priority:2, flags:4. */
export const DEPTH_MASK = 0xffffff;
export const ROLE_SHIFT = 24;
export const PRIORITY_SHIFT = 26;
export const FLAGS_SHIFT = 28;

/** Tree header fields (16 bytes a tree), as i32 indexes relative to the header. */
export const H_BLOCK = 0;
export const H_CAP_LOG2 = 1;
export const H_SIZE = 2;
export const H_NEWEST_ROOT = 3;

/** The selection's result block, in bytes: count, kept tokens, evicted (i32), forced tokens (f64). */
export const R_KEPT_TOKENS = 4;
export const R_EVICTED = 8;
export const R_FORCED_TOKENS = 16;
