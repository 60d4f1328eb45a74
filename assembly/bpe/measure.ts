// One text, read once: a count that stops past a cap, and a measuring pass whose record
// (record.ts) answers the count of any slice and where to cut the text to a budget of tokens
// at its start or its end, without merging the text again. index.ts exports these over its
// input buffer; offsets are in bytes (unitsIn and bytesAt turn them into UTF-16 indices).

import { failed, keep, keptEnd, recordArea, room } from "./merge";
import { CAPPED, KNOWN, PLAIN, RECORD, setMode, setRegions, stopped, total } from "./passes";
import {
  clearRecord, dropRecord, entryAt, entryCount, entryEnd, entryStart, nextEntry, recordEnd, recordFirst, tokenEnd,
} from "./record";

/** What tokenEnd answers when the module's memory cannot grow. */
const LOST: u32 = 0xffffffff;
import { selectRanks } from "./ranks";
import { scan as scanText } from "./scan";

let text: usize = 0;
let size: u32 = 0;
let encoding: u32 = 0;
let measured: u32 = 0;
/** Tokens of the slice the last cut kept. */
export let cutTokens: u32 = 0;

function scan(e: u32, at: usize, n: u32): u32 {
  return scanText(e, at, n);
}

/**
 * Tokens of the n bytes at `at` if at most `cap`, else a number above `cap` and at most the
 * count, found without merging past the cap (a piece that cannot fit by its bytes alone,
 * bounds.ts, is not merged). -1 when memory ran out.
 */
export function countCapped(e: u32, at: usize, n: u32, cap: u32): i32 {
  dropRecord(); // the input buffer holds another text now
  setMode(CAPPED, at, cap, e);
  scan(e, at, n);
  const out = total;
  const ok = !failed || stopped;
  setMode(PLAIN, 0, 0, 0);
  return ok ? <i32>out : -1;
}

/**
 * Counts the n bytes at `at`, recording its pieces for span and the cuts; with `cap` below
 * the count, stops once past it (then only prefixEnd of at most `cap` tokens is meaningful)
 * and returns what it counted so far. -1 when memory ran out.
 */
export function measureText(e: u32, at: usize, n: u32, cap: u32): i32 {
  text = at;
  size = n;
  encoding = e;
  clearRecord(recordArea(), at, n);
  setMode(RECORD, at, cap, e);
  scan(e, at, n);
  const ok = !failed || stopped;
  measured = total;
  setMode(PLAIN, 0, 0, 0);
  if (!ok) {
    size = 0;
    dropRecord();
    return -1;
  }
  return <i32>measured;
}

/** Tokens of bytes [a, b) of the measured text (read from the record where it can be). -1 when memory ran out. */
export function span(a: u32, b: u32): i32 {
  if (b > size) b = size;
  if (a >= b) return 0;
  if (a == 0 && b == size) return <i32>measured;
  selectRanks(encoding);
  setMode(KNOWN, text, 0, encoding);
  scan(encoding, text + a, b - a);
  const out = total;
  const ok = !failed;
  setMode(PLAIN, 0, 0, 0);
  return ok ? <i32>out : -1;
}

/**
 * Tokens of the measured text with bytes [a, b) replaced by the k bytes at `insert`, read from
 * the record: the joined text is laid out past what the record keeps and scanned there, its
 * head and tail read from the record. -1 when memory ran out.
 */
export function replacedSpan(a: u32, b: u32, insert: usize, k: u32): i32 {
  if (a > b || b > size) return -2;
  const n = a + k + (size - b);
  const kept = keptEnd();
  const at = (kept + 15) & ~15;
  if (!room(at + n + 16)) return -1;
  keep(at + n + 16); // (16 spare bytes: word loads may read past the end)
  memory.copy(at, text, a);
  memory.copy(at + a, insert, k);
  memory.copy(at + a + k, text + b, size - b);
  selectRanks(encoding);
  setMode(KNOWN, at, 0, encoding);
  setRegions(a, a + k, n, <i64>b - <i64>(a + k));
  scan(encoding, at, n);
  const out = total;
  const ok = !failed;
  setMode(PLAIN, 0, 0, 0);
  keep(kept);
  return ok ? <i32>out : -1;
}

@inline function continuation(o: u32): bool {
  return o < size && (<u32>load<u8>(text + o) & 0xc0) == 0x80;
}

/** The end of token `index` (1-based; 0: the start) of the measured text (LOST when memory ran out). */
function endOfToken(index: u32): u32 {
  if (index == 0) return 0;
  let seen: u32 = 0;
  for (let e = recordFirst(); e < recordEnd(); e = nextEntry(e)) {
    const c = entryCount(e);
    if (seen + c >= index) return tokenEnd(e, index - seen - 1);
    seen += c;
  }
  return size;
}

/** The last token end of the record before byte o (0 if none; LOST when memory ran out). */
function tokenEndBefore(o: u32): u32 {
  if (o == 0) return 0;
  const e = entryAt(o - 1);
  if (e == 0) return 0;
  let best = entryStart(e);
  for (let i: u32 = 0, c = entryCount(e); i < c; i++) {
    const v = tokenEnd(e, i);
    if (v == LOST) return LOST;
    if (v >= o) break;
    best = v;
  }
  return best;
}

/** The first token end of the record after byte o (the text's end if none; LOST when memory ran out). */
function tokenEndAfter(o: u32): u32 {
  const e = entryAt(o);
  if (e == 0) return size;
  for (let i: u32 = 0, c = entryCount(e); i < c; i++) {
    const v = tokenEnd(e, i);
    if (v > o) return v;
  }
  return entryEnd(e);
}

/**
 * The end of the longest prefix of the measured text counting at most `budget` tokens: at a
 * token end of the record (its count checked, and moved back a token while it is over),
 * never inside a character. Its tokens in cutTokens. -1 when memory ran out.
 */
export function prefixEnd(budget: u32): i32 {
  if (measured <= budget) {
    cutTokens = measured;
    return <i32>size;
  }
  let c = endOfToken(budget);
  let t: i32 = 0;
  for (;;) {
    if (c == LOST) return -1;
    while (c > 0 && continuation(c)) c--;
    t = span(0, c);
    if (t < 0 || <u32>t <= budget) break;
    c = tokenEndBefore(c);
  }
  cutTokens = t < 0 ? 0 : <u32>t;
  return t < 0 ? -1 : <i32>c;
}

/**
 * The start of the longest suffix of the measured text counting at most `budget` tokens: at a
 * token end of the record (checked, moved forward a token while over), never inside a
 * character. Its tokens in cutTokens. -1 when memory ran out.
 */
export function suffixStart(budget: u32): i32 {
  if (measured <= budget) {
    cutTokens = measured;
    return 0;
  }
  let s = endOfToken(measured - budget);
  let t: i32 = 0;
  for (;;) {
    if (s == LOST) return -1;
    while (continuation(s)) s++;
    t = span(s, size);
    if (t < 0 || <u32>t <= budget) break;
    s = tokenEndAfter(s);
  }
  cutTokens = t < 0 ? 0 : <u32>t;
  return t < 0 ? -1 : <i32>s;
}

/** UTF-16 units of bytes [a, b) of the measured text (valid UTF-8). */
export function unitsIn(a: u32, b: u32): u32 {
  let units: u32 = 0;
  for (let o = a; o < b; o++) {
    const byte = <u32>load<u8>(text + o);
    if ((byte & 0xc0) != 0x80) units += byte >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** The byte offset of UTF-16 index `units` of the measured text (the end if past it). */
export function bytesAt(units: u32): u32 {
  let seen: u32 = 0;
  let o: u32 = 0;
  while (o < size && seen < units) {
    const byte = <u32>load<u8>(text + o);
    seen += byte >= 0xf0 ? 2 : 1;
    o += byte < 0x80 ? 1 : byte < 0xe0 ? 2 : byte < 0xf0 ? 3 : 4;
  }
  return o;
}
