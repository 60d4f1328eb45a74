// Node arena: one struct-of-arrays block per tree (a chat), capacity a power of two.
//
//   tree table: one 16-byte header per tree handle
//   +----------+----------+----------+------------+
//   | block    | capLog2  | size     | newestRoot |
//   +----------+----------+----------+------------+
//
//   node block of capacity C = 1 << capLog2 (column offsets are multiples of C)
//   +----------+----------+----------+----------+----------+------+----------+-------+
//   | parent   | child    | sibling  | depth    | tokens   | role | priority | flags |
//   | u32 * C  | i32 * C  | i32 * C  | i32 * C  | i32 * C  | u8*C | u8 * C   | u8 * C|
//   +----------+----------+----------+----------+----------+------+----------+-------+
//
// parent   byte address of the parent's own `parent` slot, 0 for a root: the walk
//          chases addresses (`a = load(a)`) with no index arithmetic, about 20% faster.
//          Addresses are rebased when a block moves.
// child    id of the newest child, -1 for a leaf; sibling: the next older sibling, -1 at
//          the end. Prepending keeps append O(1) and makes the newest append undoable.
// depth    0 for a root: a walk knows how many nodes it can return without walking.
//
// The TypeScript wrapper reads single fields through its own views over these columns
// (a call per field would cost more than the read), so the offsets below are mirrored
// in src/engine/layout.ts.

import { allocRaw, freeRaw, allocUnits, freeUnits } from "./alloc";

export const NODE_BYTES: usize = 23;
export const COL_PARENT: usize = 0;
export const COL_CHILD: usize = 4;
export const COL_SIBLING: usize = 8;
export const COL_DEPTH: usize = 12;
export const COL_TOKENS: usize = 16;
export const COL_ROLE: usize = 20;
export const COL_PRIORITY: usize = 21;
export const COL_FLAGS: usize = 22;

const HEADER_BYTES: usize = 16;
export const H_BLOCK: usize = 0;
export const H_CAP_LOG2: usize = 4;
export const H_SIZE: usize = 8;
export const H_NEWEST_ROOT: usize = 12;

const MIN_CAP_LOG2: i32 = 4;
const MAX_CAP_LOG2: i32 = 26; // 64M nodes: 23 << 26 bytes stays under the 4 GiB ceiling

let table: usize = 0;
let tableLog2: i32 = 0; // table bytes = 1 << tableLog2
let tableUsed: i32 = 0; // handles handed out so far
let freeTree: i32 = -1; // dropped handles, chained through their size field

/** Nodes visited by walks since the last reset: the O(W) tests count with it. */
export let visited: i32 = 0;

@inline export function header(tree: i32): usize {
  return table + (<usize>tree << 4);
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
  return table;
}

/** A new empty tree; returns its handle, or -1 when memory cannot grow. Amortized O(1). */
export function createTree(): i32 {
  const block = allocUnits(NODE_BYTES, MIN_CAP_LOG2);
  if (block == 0) return -1;
  let tree = freeTree;
  if (tree >= 0) {
    freeTree = load<i32>(header(tree) + H_SIZE);
  } else {
    if (<usize>(tableUsed + 1) * HEADER_BYTES > (<usize>1 << tableLog2) || table == 0) {
      const k = table == 0 ? 8 : tableLog2 + 1;
      const next = allocRaw(k);
      if (next == 0) {
        freeUnits(block, MIN_CAP_LOG2);
        return -1;
      }
      if (table != 0) {
        memory.copy(next, table, <usize>tableUsed * HEADER_BYTES);
        freeRaw(table, tableLog2);
      }
      table = next;
      tableLog2 = k;
    }
    tree = tableUsed++;
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
  freeUnits(<usize>load<u32>(h + H_BLOCK), load<i32>(h + H_CAP_LOG2));
  store<u32>(h + H_BLOCK, 0);
  store<i32>(h + H_SIZE, freeTree);
  freeTree = tree;
}

/** Moves a full tree into a block twice as large; false when memory cannot grow. O(size), amortized O(1) per append. */
function growTree(h: usize, size: i32): bool {
  const k = load<i32>(h + H_CAP_LOG2);
  if (k >= MAX_CAP_LOG2) return false;
  const from = <usize>load<u32>(h + H_BLOCK);
  const to = allocUnits(NODE_BYTES, k + 1);
  if (to == 0) return false;
  const n = <usize>size;
  memory.copy(column(to, k + 1, COL_CHILD), column(from, k, COL_CHILD), n << 2);
  memory.copy(column(to, k + 1, COL_SIBLING), column(from, k, COL_SIBLING), n << 2);
  memory.copy(column(to, k + 1, COL_DEPTH), column(from, k, COL_DEPTH), n << 2);
  memory.copy(column(to, k + 1, COL_TOKENS), column(from, k, COL_TOKENS), n << 2);
  memory.copy(column(to, k + 1, COL_ROLE), column(from, k, COL_ROLE), n);
  memory.copy(column(to, k + 1, COL_PRIORITY), column(from, k, COL_PRIORITY), n);
  memory.copy(column(to, k + 1, COL_FLAGS), column(from, k, COL_FLAGS), n);
  // Parent addresses point into the old parent column: rebase them onto the new one.
  const delta = <u32>(to - from);
  for (let i: usize = 0; i < n; i++) {
    const a = load<u32>(from + (i << 2));
    store<u32>(to + (i << 2), a == 0 ? 0 : a + delta);
  }
  freeUnits(from, k);
  store<u32>(h + H_BLOCK, <u32>to);
  store<i32>(h + H_CAP_LOG2, k + 1);
  return true;
}

/**
 * Appends a node under `parent` (-1 for a new root) and returns its id (ids count up
 * from 0), or -1 when memory cannot grow. The wrapper has checked `parent < size`.
 * Amortized O(1).
 */
export function append(tree: i32, parent: i32, tokens: i32, role: i32, priority: i32, flags: i32): i32 {
  const h = header(tree);
  const id = load<i32>(h + H_SIZE);
  let k = load<i32>(h + H_CAP_LOG2);
  if (id == 1 << k) {
    if (!growTree(h, id)) return -1;
    k++;
  }
  const b = <usize>load<u32>(h + H_BLOCK);
  const i = <usize>id;
  const p = column(b, k, COL_PARENT);
  const child = column(b, k, COL_CHILD);
  const sibling = column(b, k, COL_SIBLING);
  const depth = column(b, k, COL_DEPTH);
  if (parent < 0) {
    store<u32>(p + (i << 2), 0);
    store<i32>(depth + (i << 2), 0);
    store<i32>(sibling + (i << 2), load<i32>(h + H_NEWEST_ROOT));
    store<i32>(h + H_NEWEST_ROOT, id);
  } else {
    const q = <usize>parent;
    store<u32>(p + (i << 2), <u32>(p + (q << 2)));
    store<i32>(depth + (i << 2), load<i32>(depth + (q << 2)) + 1);
    store<i32>(sibling + (i << 2), load<i32>(child + (q << 2)));
    store<i32>(child + (q << 2), id);
  }
  store<i32>(child + (i << 2), -1);
  store<i32>(column(b, k, COL_TOKENS) + (i << 2), tokens);
  store<u8>(column(b, k, COL_ROLE) + i, <u8>role);
  store<u8>(column(b, k, COL_PRIORITY) + i, <u8>priority);
  store<u8>(column(b, k, COL_FLAGS) + i, <u8>flags);
  store<i32>(h + H_SIZE, id + 1);
  return id;
}

/**
 * Removes the newest node (the undo of the last append, used when a store write
 * fails). It is the newest child of its parent, so unlinking is O(1).
 */
export function popNewest(tree: i32): void {
  const h = header(tree);
  const id = load<i32>(h + H_SIZE) - 1;
  if (id < 0) return;
  const k = load<i32>(h + H_CAP_LOG2);
  const b = <usize>load<u32>(h + H_BLOCK);
  const p = column(b, k, COL_PARENT);
  const i = <usize>id;
  const parentAddr = <usize>load<u32>(p + (i << 2));
  const older = load<i32>(column(b, k, COL_SIBLING) + (i << 2));
  if (parentAddr == 0) {
    store<i32>(h + H_NEWEST_ROOT, older);
  } else {
    store<i32>(column(b, k, COL_CHILD) + (parentAddr - p), older);
  }
  store<i32>(h + H_SIZE, id);
}

// The output buffer: walks and listings write ids here; JS reads them through its
// Int32Array view. One buffer, grown by doubling, reused by every call.
let out: usize = 0;
let outLog2: i32 = 0;

/** Makes room for `n` ids in the output buffer; returns its address, or 0 when memory cannot grow. */
export function reserveOut(n: i32): usize {
  const bytes = <usize>max(n, 1) << 2;
  if (out != 0 && bytes <= (<usize>1 << outLog2)) return out;
  let k = max(outLog2, 10);
  while ((<usize>1 << k) < bytes) k++;
  const next = allocRaw(k);
  if (next == 0) return 0;
  if (out != 0) freeRaw(out, outLog2);
  out = next;
  outLog2 = k;
  return out;
}

/** Resets the count of visited nodes. O(1). */
export function resetVisited(): void {
  visited = 0;
}

@inline export function countVisited(n: i32): void {
  visited += n;
}
