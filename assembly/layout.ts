// The constants the TypeScript side shares with the core. scripts/build-wasm.mjs compiles
// this file on its own, reads the values the compiler gave the exported globals, and writes
// them to src/engine/layout.ts (generated, git-ignored): the two sides cannot drift.
// A group's doc comment is copied above its constants. Not part of the release core.

/** Node block columns, in units of the tree's capacity C: column address = block + (offset << capLog2). */
export { NODE_BYTES, COL_PARENT, COL_CHILD, COL_SIBLING, COL_TOKENS, COL_META, COL_SKIP, COL_VDEPTH } from "./arena";

/** The meta column packs depth:24, role:2, priority:2, flags:4. */
export { DEPTH_MASK, ROLE_SHIFT, PRIORITY_SHIFT, FLAGS_SHIFT } from "./arena";

/** Roles, priorities and node flags as the core reads them. */
export { ROLE_USER, ROLE_ASSISTANT, ROLE_TOOL, CRITICAL, FLAG_TOOL_CALLS, FLAG_SUMMARY, FLAG_UNIT_END, FLAG_JOINED } from "./arena";

/** The tree table: one header a tree; byte offsets of its fields. */
export { TREE_HEADER_BYTES, H_BLOCK, H_CAP_LOG2, H_SIZE, H_NEWEST_ROOT } from "./arena";

/** The selection's result block, byte offsets: count (i32) at 0, kept tokens and evicted (i32), forced tokens (f64). */
export { R_KEPT_TOKENS, R_EVICTED, R_FORCED_TOKENS } from "./select";

/** What windowAdd returns instead of a slot. */
export { REJECTED_TOO_LARGE, REJECTED_ORPHANED, WINDOW_OUT_OF_MEMORY } from "./window";

/** What attachSummary returns instead of an id (nothing was changed). */
export {
  SUMMARY_NOT_ANCESTOR, SUMMARY_OVERLAP, SUMMARY_SPLITS_UNIT, SUMMARY_OF_SUMMARY_NODE, SUMMARY_OUT_OF_MEMORY,
} from "./summary";
