// Byte offsets of the core's data, mirrored from assembly/arena.ts (see its diagram).
// The wrapper reads single fields through views instead of calling into WASM: a call
// per field costs more than the read itself.

/** Column offsets, in units of the tree's capacity C: column address = block + (offset << capLog2). */
export const COL_PARENT = 0;
export const COL_CHILD = 4;
export const COL_SIBLING = 8;
export const COL_DEPTH = 12;
export const COL_TOKENS = 16;
export const COL_ROLE = 20;
export const COL_PRIORITY = 21;
export const COL_FLAGS = 22;

/** Tree header fields (16 bytes a tree), as i32 indexes relative to the header. */
export const H_BLOCK = 0;
export const H_CAP_LOG2 = 1;
export const H_SIZE = 2;
export const H_NEWEST_ROOT = 3;
