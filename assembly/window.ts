// Seed 004's sliding window: a token-bounded queue of messages that evicts the lowest
// priority first, oldest first, with one doubly-linked list per priority.
//
//   window header (one per handle, 68 bytes, in the window table)
//   capLog2 | used | freeSlot | first | last | total | count | max | pfirst[4] | plast[4] | block
//
//   window block (capacity C = 1 << capLog2 slots, 32 bytes a slot)
//   +------+------+-------+-------+--------+------+------+-------+
//   | prev | next | pprev | pnext | tokens | prio | unit | spare |
//   |            all columns i32 * C                            |
//   +------+------+-------+-------+--------+------+------+-------+
//
// prev/next chain every message in arrival order; pprev/pnext chain the messages of one
// priority. `unit` is the slot of the assistant message whose tool calls a tool result
// answers (-1 otherwise): evicting any member evicts the whole unit, which lies
// contiguous in arrival order. Slots of evicted messages are reused.

import { allocRaw, freeRaw, takeHandle, dropHandle, entryOf } from "./alloc";
import { reserveOut } from "./arena";

const HEADER_BYTES: usize = 68;
const W_CAP_LOG2: usize = 0;
const W_USED: usize = 4;
const W_FREE: usize = 8;
const W_FIRST: usize = 12;
const W_LAST: usize = 16;
const W_TOTAL: usize = 20;
const W_COUNT: usize = 24;
const W_MAX: usize = 28;
const W_PFIRST: usize = 32;
const W_PLAST: usize = 48;
const W_BLOCK: usize = 64;

const C_PREV: usize = 0;
const C_NEXT: usize = 1;
const C_PPREV: usize = 2;
const C_PNEXT: usize = 3;
const C_TOKENS: usize = 4;
const C_PRIO: usize = 5;
const C_UNIT: usize = 6;
const COLUMNS_LOG2: i32 = 5; // 8 columns of 4 bytes: 32 bytes a slot
const MIN_CAP_LOG2: i32 = 4;
const MAX_CAP_LOG2: i32 = 24;

// Window handles index a table of headers (blocks move when they grow; headers stay).
const windows = memory.data<i32>([0, 0, 0, -1]); // see alloc.ts's handle tables

/** windowAdd's refusals: the message is larger than the window; it would evict its own unit; memory cannot grow. */
export const REJECTED_TOO_LARGE: i32 = -1;
export const REJECTED_ORPHANED: i32 = -2;
export const WINDOW_OUT_OF_MEMORY: i32 = -3;

/** What the last windowAdd evicted: count, then the slots at the output buffer. */
export let evictedCount: i32 = 0;

@inline function headerOf(w: i32): usize {
  return entryOf(windows, HEADER_BYTES, w);
}

@inline function col(h: usize, c: usize, x: i32): usize {
  return <usize>load<u32>(h + W_BLOCK) + (c << (<usize>load<i32>(h + W_CAP_LOG2) + 2)) + (<usize>x << 2);
}

@inline function get(h: usize, c: usize, x: i32): i32 {
  return load<i32>(col(h, c, x));
}

@inline function set(h: usize, c: usize, x: i32, v: i32): void {
  store<i32>(col(h, c, x), v);
}

/** A new empty window of `maxTokens`; returns its handle, or -1 when memory cannot grow. O(1). */
export function createWindow(maxTokens: i32): i32 {
  const block = allocRaw(MIN_CAP_LOG2 + COLUMNS_LOG2);
  if (block == 0) return -1;
  const w = takeHandle(windows, HEADER_BYTES);
  if (w < 0) {
    freeRaw(block, MIN_CAP_LOG2 + COLUMNS_LOG2);
    return -1;
  }
  const h = headerOf(w);
  memory.fill(h, 0xff, HEADER_BYTES); // -1 everywhere, then the counters
  store<i32>(h + W_CAP_LOG2, MIN_CAP_LOG2);
  store<i32>(h + W_USED, 0);
  store<i32>(h + W_TOTAL, 0);
  store<i32>(h + W_COUNT, 0);
  store<i32>(h + W_MAX, maxTokens);
  store<u32>(h + W_BLOCK, <u32>block);
  return w;
}

/** Frees a window; its handle may be reused. O(1). */
export function dropWindow(w: i32): void {
  const h = headerOf(w);
  freeRaw(<usize>load<u32>(h + W_BLOCK), load<i32>(h + W_CAP_LOG2) + COLUMNS_LOG2);
  dropHandle(windows, HEADER_BYTES, w);
}

/** Unlinks slot x from both lists and frees it. O(1). */
function removeSlot(h: usize, x: i32): void {
  const prev = get(h, C_PREV, x);
  const next = get(h, C_NEXT, x);
  if (prev >= 0) set(h, C_NEXT, prev, next);
  else store<i32>(h + W_FIRST, next);
  if (next >= 0) set(h, C_PREV, next, prev);
  else store<i32>(h + W_LAST, prev);
  const p = <usize>get(h, C_PRIO, x) << 2;
  const pprev = get(h, C_PPREV, x);
  const pnext = get(h, C_PNEXT, x);
  if (pprev >= 0) set(h, C_PNEXT, pprev, pnext);
  else store<i32>(h + W_PFIRST + p, pnext);
  if (pnext >= 0) set(h, C_PPREV, pnext, pprev);
  else store<i32>(h + W_PLAST + p, pprev);
  store<i32>(h + W_TOTAL, load<i32>(h + W_TOTAL) - get(h, C_TOKENS, x));
  store<i32>(h + W_COUNT, load<i32>(h + W_COUNT) - 1);
  set(h, C_NEXT, x, load<i32>(h + W_FREE));
  set(h, C_UNIT, x, -2); // marks a free slot
  store<i32>(h + W_FREE, x);
}

/** Doubles a window's capacity; false when memory cannot grow. O(capacity). */
function growWindow(h: usize): bool {
  const k = load<i32>(h + W_CAP_LOG2);
  if (k >= MAX_CAP_LOG2) return false;
  const from = <usize>load<u32>(h + W_BLOCK);
  const to = allocRaw(k + 1 + COLUMNS_LOG2);
  if (to == 0) return false;
  const used = <usize>load<i32>(h + W_USED) << 2;
  for (let c: usize = 0; c <= C_UNIT; c++) {
    memory.copy(to + (c << (<usize>k + 3)), from + (c << (<usize>k + 2)), used);
  }
  freeRaw(from, k + COLUMNS_LOG2);
  store<u32>(h + W_BLOCK, <u32>to);
  store<i32>(h + W_CAP_LOG2, k + 1);
  return true;
}

/** Evicts the message at slot `head` and the tool results of its unit after it, writing their slots to `out`. */
function evictUnit(h: usize, head: i32, out: usize): void {
  let x = head;
  do {
    const next = get(h, C_NEXT, x);
    removeSlot(h, x);
    store<i32>(out + (<usize>evictedCount << 2), x);
    evictedCount++;
    x = next;
  } while (x >= 0 && get(h, C_UNIT, x) == head);
}

/**
 * Evicts the tool unit headed by slot `unit` (an assistant message and the results after it):
 * a unit that can no longer be completed is never kept. The slots are at the output
 * buffer, `evictedCount` of them; the caller reserved room for the window's messages. O(unit).
 */
export function windowEvictUnit(w: i32, unit: i32): void {
  evictedCount = 0;
  evictUnit(headerOf(w), unit, reserveOut(0));
}

/**
 * Whether making room for `tokens` would evict the unit headed by slot `unit`: the same
 * walk as the eviction (lowest priority first, oldest first, whole units), without
 * changing anything. A unit's head is the oldest of its priority among its members, so
 * each list is walked from its head unit by unit. O(evicted).
 */
function evictsUnit(h: usize, tokens: i32, unit: i32): bool {
  let need: i64 = <i64>load<i32>(h + W_TOTAL) + <i64>tokens - <i64>load<i32>(h + W_MAX);
  for (let p: usize = 0; p < 4 && need > 0; p++) {
    let x = load<i32>(h + W_PFIRST + (p << 2));
    while (x >= 0 && need > 0) {
      const head = get(h, C_UNIT, x) >= 0 ? get(h, C_UNIT, x) : x;
      if (head == unit) return true;
      do {
        need -= <i64>get(h, C_TOKENS, x);
        x = get(h, C_PNEXT, x);
      } while (x >= 0 && get(h, C_UNIT, x) == head);
    }
  }
  return false;
}

/**
 * Adds a message of `tokens` at `priority` (0..3) to window `w`, evicting whole messages
 * (and whole tool units) lowest priority first, oldest first, until it fits. `unit` is the
 * slot of the assistant message a tool result answers, or -1. Returns the new slot; -1
 * when the message is larger than the window, -2 when making room would evict its own
 * unit (in both cases nothing is evicted); -3 when memory cannot grow. The evicted slots
 * are at the output buffer, `evictedCount` of them. Amortized O(1 + evicted).
 */
export function windowAdd(w: i32, tokens: i32, priority: i32, unit: i32): i32 {
  const h = headerOf(w);
  evictedCount = 0;
  const maxTokens = load<i32>(h + W_MAX);
  if (tokens > maxTokens) return REJECTED_TOO_LARGE;
  if (unit >= 0 && evictsUnit(h, tokens, unit)) return REJECTED_ORPHANED;
  const out = reserveOut(load<i32>(h + W_COUNT));
  if (out == 0) return WINDOW_OUT_OF_MEMORY;
  // In 64 bits: the total and the new message may each be near the 2^30 cap.
  while (<i64>load<i32>(h + W_TOTAL) + <i64>tokens > <i64>maxTokens) {
    let victim = -1;
    for (let p = 0; p < 4 && victim < 0; p++) victim = load<i32>(h + W_PFIRST + (<usize>p << 2));
    evictUnit(h, get(h, C_UNIT, victim) >= 0 ? get(h, C_UNIT, victim) : victim, out);
  }

  let x = load<i32>(h + W_FREE);
  if (x >= 0) {
    store<i32>(h + W_FREE, get(h, C_NEXT, x));
  } else {
    x = load<i32>(h + W_USED);
    if (x == 1 << load<i32>(h + W_CAP_LOG2) && !growWindow(h)) return WINDOW_OUT_OF_MEMORY;
    store<i32>(h + W_USED, x + 1);
  }
  const last = load<i32>(h + W_LAST);
  set(h, C_PREV, x, last);
  set(h, C_NEXT, x, -1);
  if (last >= 0) set(h, C_NEXT, last, x);
  else store<i32>(h + W_FIRST, x);
  store<i32>(h + W_LAST, x);
  const p = <usize>priority << 2;
  const plast = load<i32>(h + W_PLAST + p);
  set(h, C_PPREV, x, plast);
  set(h, C_PNEXT, x, -1);
  if (plast >= 0) set(h, C_PNEXT, plast, x);
  else store<i32>(h + W_PFIRST + p, x);
  store<i32>(h + W_PLAST + p, x);
  set(h, C_TOKENS, x, tokens);
  set(h, C_PRIO, x, priority);
  set(h, C_UNIT, x, unit);
  store<i32>(h + W_TOTAL, load<i32>(h + W_TOTAL) + tokens);
  store<i32>(h + W_COUNT, load<i32>(h + W_COUNT) + 1);
  return x;
}

/** Writes the window's slots in arrival order to `out`; returns how many. O(count). */
export function windowSlotsInto(w: i32, out: usize): i32 {
  const h = headerOf(w);
  let n = 0;
  for (let x = load<i32>(h + W_FIRST); x >= 0; x = get(h, C_NEXT, x)) {
    store<i32>(out + (<usize>n << 2), x);
    n++;
  }
  return n;
}

/** Tokens held by the window. O(1). */
export function windowTokens(w: i32): i32 {
  return load<i32>(headerOf(w) + W_TOTAL);
}

/** Messages held by the window. O(1). */
export function windowCount(w: i32): i32 {
  return load<i32>(headerOf(w) + W_COUNT);
}
