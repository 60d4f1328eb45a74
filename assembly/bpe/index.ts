// The exact BPE counter's exports (o200k_base = 0, cl100k_base = 1). Numbers only cross:
// JS writes a text's UTF-8 into the input buffer (input()), then count() returns its tokens.
//
// Memory after the tables (see layout.ts): rank tables built by init(), then the input buffer,
// then the work area of the merges. init() may move the input buffer: call input() after it.

import { DATA_BASE, MAGIC, header, reach, setUnicode } from "./layout";
import { failed, resetSteps, setWork, steps, workEnd } from "./merge";
import { buildRanks, selectRanks } from "./ranks";
import { countCl100k, countO200k } from "./split";

const MIN_WORK: usize = 4096;

let tablesTop: usize = 0;
let inputPtr: usize = 0;
let inputCap: u32 = 0;
/** End of the memory input buffers and merges have used (above it, memory is still zero). */
let dirtyEnd: usize = 0;

/**
 * Lays out encoding e's rank table (0 or 1; once): its number of ranks, to hash in slices with
 * insertRanks(e, from, to); 0 when memory cannot grow, -1 for a bad e or blob.
 */
export function init(e: u32): i32 {
  if (e > 1 || header(0) != MAGIC) return -1;
  if (tablesTop == 0) {
    setUnicode();
    tablesTop = (DATA_BASE + <usize>header(1) + 15) & ~15;
  }
  const top = buildRanks(e, tablesTop, dirtyEnd);
  if (top == 0) return 0;
  if (top != tablesTop) {
    tablesTop = top;
    inputPtr = 0;
    inputCap = 0;
  }
  return <i32>header(2 + 4 * e);
}

export { insertRanks } from "./ranks";
/** Empties both encodings' caches of merged pieces, in O(1) (benchmarks count texts at first sight). */
export { forget } from "./pieces";

/** The input buffer, holding at least `cap` bytes; 0 when memory cannot grow. */
export function input(cap: u32): usize {
  if (tablesTop == 0) return 0;
  if (inputPtr != 0 && cap <= inputCap) return inputPtr;
  const at = (tablesTop + 15) & ~15;
  const size = (<usize>cap + 16 + 15) & ~15; // 16 spare bytes: word loads may read past the end
  const work = at + size;
  if (!reach(work + MIN_WORK)) return 0;
  inputPtr = at;
  inputCap = cap;
  setWork(work, work + MIN_WORK);
  dirtyEnd = max(dirtyEnd, work + MIN_WORK);
  return at;
}

/** Tokens of the n bytes in the input buffer in encoding e; -1 when memory ran out, -2 if e is not ready. */
export function count(e: u32, n: u32): i32 {
  if (e > 1 || inputPtr == 0 || n > inputCap || !selectRanks(e)) return -2;
  resetSteps();
  const tokens = e == 0 ? countO200k(inputPtr, n) : countCl100k(inputPtr, n);
  dirtyEnd = max(dirtyEnd, workEnd());
  return failed ? -1 : <i32>tokens;
}

/** Bytes of encoding e's longest token (0 for a bad e): a text of n bytes is at least n / longest tokens. */
export function longest(e: u32): u32 {
  return e > 1 || header(0) != MAGIC ? 0 : header(5 + 4 * e);
}

/** Bytes the tables take in memory: the data segment plus the rank tables built so far. */
export function tableBytes(): u32 {
  return tablesTop == 0 ? header(1) : <u32>(tablesTop - DATA_BASE);
}

/** Merge steps the last count() took (pair scans and heap sift steps): the complexity tests read it. */
export function mergeSteps(): u32 {
  return steps;
}
