// Node arena: one struct-of-arrays block per tree (a chat), capacity a power of two.
//
//   tree table: one 16-byte header per tree handle
//   +----------+----------+----------+------------+
//   | block    | capLog2  | size     | newestRoot |
//   +----------+----------+----------+------------+
//
//   node block of capacity C = 1 << capLog2: eleven 4-byte columns, 44 bytes a node
//   +--------+-------+---------+-----+-----+-----+------+--------+-----------------------+------+--------+
//   | parent | child | sibling | up1 | up2 | up3 | user | tokens | meta: depth:24 role:2 | skip | vdepth |
//   | u32*C  | i32*C | i32*C   |    i32*C each   | i32*C| i32*C  | prio:2 flags:4 (u32)  | i32*C| i32*C  |
//   +--------+-------+---------+-----+-----+-----+------+--------+-----------------------+------+--------+
//
// parent   byte address of the parent's own `parent` slot, 0 for a root: the walk
//          chases addresses (`a = load(a)`) with no index arithmetic, about 20% faster.
//          Addresses are rebased when a block moves.
// child    id of the newest child, -1 for a leaf; sibling: the next older sibling, -1 at
//          the end. Prepending keeps append O(1).
// meta     depth (0 for a root) in the low 24 bits, then role, priority and flags.
//
// Summaries (summary.ts) are overlays: a summary node stands for a run [first..last] of a
// branch and hangs on `last`. The columns below are taken on the summarized path, the
// path a walk follows when it jumps over every run whose `last` it reaches ("entries":
// originals not hidden, and summaries):
// upK      the nearest entry above whose priority is >= K (1 normal, 2 high, 3 critical),
//          -1 if none: the selection visits each priority's messages without touching the
//          less important ones in between (select.ts).
// user     the nearest user message at or above on the branch (originals, summaries
//          ignored), -1 if none: the newest user turn of a branch in O(1), however long the
//          agent steps after it. Bit 30 (USER_COVERED) is set when a summary hangs on a
//          node from that message down to this node's parent: the summarized path above
//          would hide the turn or what follows it, so a walk from this node as the head
//          takes the turn's messages as originals (walk.ts). No summary covers a head's
//          own turn: one hanging on the head itself applies only on a branch with no user
//          message. -1 for a summary node.
// vdepth   depth on the summarized path (0 for its first entry).
// skip     the newest summary hanging on this node (its `last`), -1 if none.
// FLAG_JOINED (a flag bit the wrapper does not show): a summary's run holds this node
//          together with its parent. attachSummary finds overlapping runs with it.
//
// A summary node uses the columns its own way: parent is the parent of `first` (the walk
// goes on from there), child = the older summary it replaced on `last` (-1 if none: the
// summaries hanging on a node form a list, newest first), sibling = first, skip = last,
// depth = first's depth, role 0, FLAG_SUMMARY. It is in no child list and has no children:
// the tree view never shows it.
//
// The TypeScript wrapper reads single fields through its own views over these columns
// (a call per field would cost more than the read): scripts/build-wasm.mjs generates
// src/engine/layout.ts from the constants below (see assembly/layout.ts).

import {
  allocRaw, freeRaw, bufferOf, allocUnits, freeUnits, reuseUnits, reusedClass, extendTop, takeHandle, dropHandle,
  entryOf,
} from "./alloc";

export const NODE_BYTES: usize = 44;
export const COL_PARENT: usize = 0;
export const COL_CHILD: usize = 4;
export const COL_SIBLING: usize = 8;
export const COL_UP1: usize = 12;
export const COL_UP2: usize = 16;
export const COL_UP3: usize = 20;
export const COL_USER: usize = 24;
export const COL_TOKENS: usize = 28;
export const COL_META: usize = 32;
export const COL_SKIP: usize = 36;
export const COL_VDEPTH: usize = 40;
const COL_LAST: usize = COL_VDEPTH;

export const DEPTH_MASK: u32 = 0xffffff;
export const ROLE_SHIFT: u32 = 24;
export const PRIORITY_SHIFT: u32 = 26;
export const FLAGS_SHIFT: u32 = 28;
export const ROLE_USER: u32 = 1;
export const ROLE_ASSISTANT: u32 = 2;
export const ROLE_TOOL: u32 = 3;
export const FLAG_TOOL_CALLS: u32 = 1; // an assistant message that carries tool calls
export const FLAG_SUMMARY: u32 = 2; // a summary node
export const FLAG_UNIT_END: u32 = 4; // a tool result that answers the last open call of its assistant message
export const FLAG_JOINED: u32 = 8; // internal: a summary's run holds this node together with its parent
export const CRITICAL: i32 = 3; // the highest priority (0 low, 1 normal, 2 high)
export const USER_COVERED: i32 = 1 << 30; // in the user column: a summary hangs inside this node's turn (above)

export const TREE_HEADER_BYTES: usize = 16;
const HEADER_BYTES = TREE_HEADER_BYTES;
export const H_BLOCK: usize = 0;
export const H_CAP_LOG2: usize = 4;
export const H_SIZE: usize = 8;
export const H_NEWEST_ROOT: usize = 12;

const MIN_CAP_LOG2: i32 = 4;
const MAX_CAP_LOG2: i32 = 24; // 16M nodes: the depth field's range; 44 << 24 bytes = 704 MiB

const trees = memory.data<i32>([0, 0, 0, -1]); // the tree table (see alloc.ts's handle tables)

// Visit counting, for the O(W) tests only: the counting core is a second build with
// `--use COUNT_VISITS=1` (asconfig.json's "counting" target). In the release core COUNTING
// is false at compile time, so every count below folds away and walks pay nothing.
// @ts-ignore: decorator
@lazy const COUNTING: bool = isDefined(COUNT_VISITS);

/** Whether this build counts visits (1) or not (0). */
export const COUNTS_VISITS: i32 = COUNTING ? 1 : 0;

/** Nodes visited by walks and selections since the last reset (counting build only; 0 otherwise). */
export let visited: i32 = 0;

@inline export function header(tree: i32): usize {
  return entryOf(trees, HEADER_BYTES, tree);
}

@inline export function column(block: usize, capLog2: i32, col: usize): usize {
  return block + (col << capLog2);
}

/** Address of column `col` of a tree's current block. */
@inline export function treeColumn(h: usize, col: usize): usize {
  return column(<usize>load<u32>(h + H_BLOCK), load<i32>(h + H_CAP_LOG2), col);
}

/** Address of the tree table (it moves when it grows; the wrapper re-reads it after createTree). */
export function treeTable(): usize {
  return entryOf(trees, HEADER_BYTES, 0);
}

/** A new empty tree; returns its handle, or -1 when memory cannot grow. Amortized O(1). */
export function createTree(): i32 {
  const block = allocUnits(NODE_BYTES, MIN_CAP_LOG2);
  if (block == 0) return -1;
  const tree = takeHandle(trees, HEADER_BYTES);
  if (tree < 0) {
    freeUnits(block, NODE_BYTES, MIN_CAP_LOG2);
    return -1;
  }
  const h = header(tree);
  store<u32>(h + H_BLOCK, <u32>block);
  store<i32>(h + H_CAP_LOG2, MIN_CAP_LOG2);
  store<i32>(h + H_SIZE, 0);
  store<i32>(h + H_NEWEST_ROOT, -1);
  return tree;
}

/** Releases a tree's block for reuse; the handle may be returned by a later createTree. O(1). */
export function dropTree(tree: i32): void {
  const h = header(tree);
  freeUnits(<usize>load<u32>(h + H_BLOCK), NODE_BYTES, load<i32>(h + H_CAP_LOG2));
  dropHandle(trees, HEADER_BYTES, tree);
}

/**
 * Grows a full tree's capacity; false when memory cannot grow. O(size), amortized O(1) per
 * append. The smallest freed block that is larger is reused first (the tree takes its whole
 * capacity); else the topmost block doubles in place (columns move up, from the last one
 * down, and parent addresses stay valid); else the tree moves to a new block twice as large.
 */
function growTree(h: usize, size: i32): bool {
  const k = load<i32>(h + H_CAP_LOG2);
  if (k >= MAX_CAP_LOG2) return false;
  const from = <usize>load<u32>(h + H_BLOCK);
  const n = <usize>size << 2;
  let to = reuseUnits(k + 1);
  let k2 = reusedClass;
  if (to == 0) {
    if (extendTop(from, NODE_BYTES << k, NODE_BYTES << (k + 1))) {
      for (let col = COL_LAST; col >= COL_CHILD; col -= 4) {
        memory.copy(column(from, k + 1, col), column(from, k, col), n);
      }
      store<i32>(h + H_CAP_LOG2, k + 1);
      return true;
    }
    to = allocUnits(NODE_BYTES, k + 1);
    k2 = k + 1;
    if (to == 0) return false;
  }
  for (let col = COL_CHILD; col <= COL_LAST; col += 4) {
    memory.copy(column(to, k2, col), column(from, k, col), n);
  }
  // Parent addresses point into the old parent column: rebase them onto the new one.
  const delta = <u32>(to - from);
  for (let i: usize = 0; i < n; i += 4) {
    const a = load<u32>(from + i);
    store<u32>(to + i, a == 0 ? 0 : a + delta);
  }
  freeUnits(from, NODE_BYTES, k);
  store<u32>(h + H_BLOCK, <u32>to);
  store<i32>(h + H_CAP_LOG2, k2);
  return true;
}

/** Grows a tree's block until it holds `n` nodes; false when memory cannot grow. Amortized O(1) per node. */
export function reserveTree(tree: i32, n: i32): bool {
  const h = header(tree);
  while (n > 1 << load<i32>(h + H_CAP_LOG2)) {
    if (!growTree(h, load<i32>(h + H_SIZE))) return false;
  }
  return true;
}

/**
 * Sets the tokens of node `id` (a message or a summary), when what it sends was rewritten (a
 * redaction): selections from then on count it so. The wrapper has checked `id < size`. O(1).
 */
export function setTokens(tree: i32, id: i32, tokens: i32): void {
  const h = header(tree);
  const b = <usize>load<u32>(h + H_BLOCK);
  store<i32>(column(b, load<i32>(h + H_CAP_LOG2), COL_TOKENS) + (<usize>id << 2), tokens);
}

/**
 * Appends a node under `parent` (-1 for a new root) and returns its id (ids count up
 * from 0), or -1 when memory cannot grow. The wrapper has checked `parent < size` and that
 * it is not a summary node. Amortized O(1).
 */
export function append(tree: i32, parent: i32, tokens: i32, role: i32, priority: i32, flags: i32): i32 {
  const h = header(tree);
  const id = load<i32>(h + H_SIZE);
  let k = load<i32>(h + H_CAP_LOG2);
  if (id == 1 << k) {
    if (!growTree(h, id)) return -1;
    k = load<i32>(h + H_CAP_LOG2); // doubled, or more when a larger freed block was reused
  }
  const b = <usize>load<u32>(h + H_BLOCK);
  const i = <usize>id << 2;
  const p = column(b, k, COL_PARENT);
  const child = column(b, k, COL_CHILD);
  const sibling = column(b, k, COL_SIBLING);
  const meta = column(b, k, COL_META);
  let depth: u32 = 0;
  let e = -1; // the entry above on the summarized path: a summary hanging on the parent, or the parent
  let eMeta: u32 = 0;
  if (parent < 0) {
    store<u32>(p + i, 0);
    store<i32>(sibling + i, load<i32>(h + H_NEWEST_ROOT));
    store<i32>(h + H_NEWEST_ROOT, id);
  } else {
    const q = <usize>parent << 2;
    eMeta = load<u32>(meta + q);
    depth = (eMeta & DEPTH_MASK) + 1;
    e = load<i32>(column(b, k, COL_SKIP) + q);
    if (e >= 0) eMeta = load<u32>(meta + (<usize>e << 2));
    else e = parent;
    store<u32>(p + i, <u32>(p + q));
    store<i32>(sibling + i, load<i32>(child + q));
    store<i32>(child + q, id);
  }
  linkEntry(b, k, id, e, eMeta);
  // The newest user turn on the branch; covered when a summary hangs between it and here.
  let user = -1;
  if (<u32>role == ROLE_USER) user = id;
  else if (parent >= 0) {
    const q = <usize>parent << 2;
    user = load<i32>(column(b, k, COL_USER) + q);
    if (user >= 0 && load<i32>(column(b, k, COL_SKIP) + q) >= 0) user |= USER_COVERED;
  }
  store<i32>(column(b, k, COL_USER) + i, user);
  store<i32>(child + i, -1);
  store<i32>(column(b, k, COL_TOKENS) + i, tokens);
  const bits = (<u32>role << ROLE_SHIFT) | (<u32>priority << PRIORITY_SHIFT) | (<u32>flags << FLAGS_SHIFT);
  store<u32>(meta + i, depth | bits);
  store<i32>(column(b, k, COL_SKIP) + i, -1);
  store<i32>(h + H_SIZE, id + 1);
  return id;
}

/** The entry a walk meets at original `x`: the summary hanging on it, or x itself. */
@inline export function entryAt(b: usize, k: i32, x: i32): i32 {
  const s = load<i32>(column(b, k, COL_SKIP) + (<usize>x << 2));
  return s >= 0 ? s : x;
}

/**
 * Sets the summarized-path columns of node `id` whose walk goes on at entry `e` (-1: none),
 * whose meta is `eMeta`: upK and vdepth from it. O(1).
 */
@inline export function linkEntry(b: usize, k: i32, id: i32, e: i32, eMeta: u32): void {
  const i = <usize>id << 2;
  const vdepth = column(b, k, COL_VDEPTH);
  if (e < 0) {
    for (let col = COL_UP1; col <= COL_UP3; col += 4) store<i32>(column(b, k, col) + i, -1);
    store<i32>(vdepth + i, 0);
    return;
  }
  const q = <usize>e << 2;
  const priority = <i32>((eMeta >> PRIORITY_SHIFT) & 3);
  // The nearest entry of priority >= K is the entry above itself, or that entry's own.
  for (let level = 1; level <= 3; level++) {
    const up = column(b, k, COL_UP1 + ((<usize>level - 1) << 2));
    store<i32>(up + i, priority >= level ? e : load<i32>(up + q));
  }
  store<i32>(vdepth + i, load<i32>(vdepth + q) + 1);
}

// The output buffer: walks and listings write ids here; JS reads them through its
// Int32Array view. One buffer, grown by doubling, reused by every call.
const out = memory.data(8, 8); // (see bufferOf)

/** Makes room for `n` ids in the output buffer; returns its address, or 0 when memory cannot grow. */
export function reserveOut(n: i32): usize {
  return bufferOf(out, <usize>max(n, 1) << 2);
}

/** Resets the count of visited nodes. O(1). */
export function resetVisited(): void {
  visited = 0;
}

/** Adds n to the visit count; nothing in the release build. */
@inline export function countVisited(n: i32): void {
  if (COUNTING) visited += n;
}
