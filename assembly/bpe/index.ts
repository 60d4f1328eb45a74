// The exact BPE counter's exports (o200k_base = 0, cl100k_base = 1; a vocabulary written in at
// run time, reserve(), in 0). Numbers only cross:
// JS writes a text's UTF-8 into the input buffer (input()), then count() returns its tokens.
//
// Memory after the tables (see layout.ts): rank tables built by init(), then the input buffer,
// then the work area of the merges. init() may move the input buffer: call input() after it.

import { DATA_BASE, MAGIC, header, reach, setHeader, setUnicode } from "./layout";
import { failed, resetSteps, setWork, steps, workEnd } from "./merge";
import { dropRecord } from "./record";
import {
  bytesAt, countCapped, cutTokens, measureText, prefixEnd, replacedSpan, span, suffixStart, unitsIn,
} from "./measure";
import { buildRanks, selectRanks } from "./ranks";
import { scan } from "./scan";

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
  if (e > 1 || header(0) != MAGIC || header(2 + 4 * e) == 0) return -1;
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

/** Ranks of encoding e in this module (0: it holds none, or e is no encoding). */
export function ranks(e: u32): u32 {
  return e > 1 || header(0) != MAGIC ? 0 : header(2 + 4 * e);
}

/**
 * Room for a vocabulary of `count` ranks and `poolBytes` bytes of tokens in encoding e, split by
 * `pattern` (layout.ts: P_*), in a module without it and before any init(): where JS writes its
 * lengths (u8 a rank), its pool starting at the next multiple of 8 past lengths + count + 8.
 * 0 when it cannot (e taken, tables laid out, memory full).
 */
export function reserve(e: u32, count: u32, poolBytes: u32, longest: u32, pattern: u32): usize {
  if (e > 1 || header(0) != MAGIC || tablesTop != 0 || header(2 + 4 * e) != 0 || count == 0) return 0;
  const lengthsAt = (header(1) + 7) & ~7;
  const poolAt = (lengthsAt + count + 8 + 7) & ~7;
  const end = (poolAt + poolBytes + 8 + 7) & ~7;
  if (!reach(DATA_BASE + <usize>end)) return 0;
  setHeader(2 + 4 * e, count);
  setHeader(3 + 4 * e, lengthsAt);
  setHeader(4 + 4 * e, poolAt);
  setHeader(5 + 4 * e, longest);
  setHeader(13 + e, pattern);
  setHeader(1, end);
  return DATA_BASE + <usize>lengthsAt;
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
  dropRecord(); // a measured text's record: its text is overwritten
  const tokens = scan(e, inputPtr, n);
  dirtyEnd = max(dirtyEnd, workEnd());
  return failed ? -1 : <i32>tokens;
}

/**
 * Bytes of the small buffer: texts this short are counted there, leaving the input buffer (and a measured text) alone.
 */
const SMALL_BYTES: u32 = 4096;
const small = memory.data(SMALL_BYTES + 16); // 16 spare bytes: word loads may read past the end

/** The small buffer (SMALL_BYTES bytes, fixed). */
export function smallInput(): usize {
  return small;
}

/**
 * Tokens of the n bytes in the small buffer in encoding e; -1 when memory ran out, -2 if e is not ready (or no input
 * buffer yet).
 */
export function countSmall(e: u32, n: u32): i32 {
  if (e > 1 || n > SMALL_BYTES || inputPtr == 0 || !selectRanks(e)) return -2;
  resetSteps();
  const tokens = scan(e, small, n);
  dirtyEnd = max(dirtyEnd, workEnd());
  return failed ? -1 : <i32>tokens;
}

/** Encoding e is ready and the input buffer holds n bytes. */
function ready(e: u32, n: u32): bool {
  return e <= 1 && inputPtr != 0 && n <= inputCap && selectRanks(e);
}

/** The result of a call that may have grown the work area, noted for init(). */
@inline function noted(result: i32): i32 {
  dirtyEnd = max(dirtyEnd, workEnd());
  return result;
}

/**
 * Tokens of the n bytes in the input buffer if at most cap, else a number above cap (merging stops there); -1, -2 as
 * count().
 */
export function countUpTo(e: u32, n: u32, cap: u32): i32 {
  if (!ready(e, n)) return -2;
  resetSteps();
  return noted(countCapped(e, inputPtr, n, cap));
}

/**
 * Tokens of the n bytes in the input buffer, recorded so that measuredSpan() and the cuts read
 * them again without merging; past `cap`, it stops (a number above cap: only headCut of at most
 * cap tokens then). -1, -2 as count().
 */
export function measure(e: u32, n: u32, cap: u32): i32 {
  if (!ready(e, n)) return -2;
  resetSteps();
  return noted(measureText(e, inputPtr, n, cap));
}

/**
 * Tokens of bytes [a, b) of the text measure() read (nothing else written to the input buffer since); -1 out of memory.
 */
export function measuredSpan(a: u32, b: u32): i32 {
  return noted(span(a, b));
}

/**
 * Tokens of the measured text with bytes [a, b) replaced by the first k bytes of the small buffer, from the record; -1
 * out of memory.
 */
export function measuredReplace(a: u32, b: u32, k: u32): i32 {
  if (k > SMALL_BYTES) return -2;
  return noted(replacedSpan(a, b, small, k));
}

/**
 * Byte offset where the longest prefix of the measured text of at most max tokens ends (its tokens: cutCount()); -1 out
 * of memory.
 */
export function headCut(max: u32): i32 {
  return noted(prefixEnd(max));
}

/**
 * Byte offset where the longest suffix of the measured text of at most max tokens starts (its tokens: cutCount()); -1
 * out of memory.
 */
export function tailCut(max: u32): i32 {
  return noted(suffixStart(max));
}

/** Tokens of what the last headCut or tailCut kept. */
export function cutCount(): u32 {
  return cutTokens;
}

/** UTF-16 units of bytes [a, b) of the measured text. */
export function units(a: u32, b: u32): u32 {
  return unitsIn(a, b);
}

/** The byte offset of UTF-16 index u of the measured text. */
export function byteOffset(u: u32): u32 {
  return bytesAt(u);
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
