// The sliding window of the JS engine, as assembly/window.ts's: one arrival list and one list
// per priority, evicting the lowest priority first, oldest first, whole tool units.
import { REJECTED_ORPHANED, REJECTED_TOO_LARGE } from "../types.js";

/** A message of a sliding window: in the arrival list and in its priority's list. */
interface WindowNode {
  readonly slot: number;
  prev: WindowNode | null;
  next: WindowNode | null;
  pprev: WindowNode | null;
  pnext: WindowNode | null;
  readonly tokens: number;
  readonly priority: number;
  /** The assistant message whose calls this tool result answers. */
  readonly unit: WindowNode | null;
}

export interface JsWindow {
  maxTokens: number;
  total: number;
  count: number;
  first: WindowNode | null;
  last: WindowNode | null;
  /** Oldest and newest message of each priority. */
  pfirst: (WindowNode | null)[];
  plast: (WindowNode | null)[];
  /** Live messages by slot; freed slots are reused lowest-freed-last, as the core does. */
  slots: (WindowNode | null)[];
  freeSlots: number[];
}

export function newWindow(maxTokens: number): JsWindow {
  return {
    maxTokens,
    total: 0,
    count: 0,
    first: null,
    last: null,
    pfirst: [null, null, null, null],
    plast: [null, null, null, null],
    slots: [],
    freeSlots: [],
  };
}

/** See Engine.windowAdd. Amortized O(1 + evicted). */
export function windowAdd(
  w: JsWindow,
  tokens: number,
  priority: number,
  unit: number,
): { slot: number; evicted: Int32Array } {
  const evicted: number[] = [];
  if (tokens > w.maxTokens) return { slot: REJECTED_TOO_LARGE, evicted: new Int32Array(0) };
  const owner = unit >= 0 ? w.slots[unit]! : null;
  if (owner && evictsUnit(w, tokens, owner)) return { slot: REJECTED_ORPHANED, evicted: new Int32Array(0) };
  while (w.total + tokens > w.maxTokens) {
    const victim = w.pfirst.find((n) => n !== null)!;
    evictUnit(w, victim.unit ?? victim, evicted);
  }
  const slot = w.freeSlots.pop() ?? w.slots.length;
  const node: WindowNode = {
    slot,
    prev: w.last,
    next: null,
    pprev: w.plast[priority]!,
    pnext: null,
    tokens,
    priority,
    unit: owner,
  };
  if (w.last) w.last.next = node;
  else w.first = node;
  w.last = node;
  if (w.plast[priority]) w.plast[priority]!.pnext = node;
  else w.pfirst[priority] = node;
  w.plast[priority] = node;
  w.slots[slot] = node;
  w.total += tokens;
  w.count++;
  return { slot, evicted: Int32Array.from(evicted) };
}

/** Evicts the whole tool unit headed by slot `unit`; returns the slots it freed. O(unit). */
export function windowEvictUnit(w: JsWindow, unit: number): Int32Array {
  const evicted: number[] = [];
  evictUnit(w, w.slots[unit]!, evicted);
  return Int32Array.from(evicted);
}

/** The window's slots, oldest first. O(count). */
export function windowSlots(w: JsWindow): Int32Array {
  const out: number[] = [];
  for (let x = w.first; x; x = x.next) out.push(x.slot);
  return Int32Array.from(out);
}

/** Whether making room for `tokens` would evict `unit`'s messages (the eviction's walk, changing nothing). */
function evictsUnit(w: JsWindow, tokens: number, unit: WindowNode): boolean {
  let need = w.total + tokens - w.maxTokens;
  for (let p = 0; p < 4 && need > 0; p++) {
    for (let x = w.pfirst[p]!; x && need > 0; ) {
      const head: WindowNode = x.unit ?? x;
      if (head === unit) return true;
      do {
        need -= x.tokens;
        x = x.pnext!;
      } while (x && x.unit === head);
    }
  }
  return false;
}

/** Evicts `head` and the tool results of its unit after it, pushing their slots to `evicted`. */
function evictUnit(w: JsWindow, head: WindowNode, evicted: number[]): void {
  let x: WindowNode | null = head;
  do {
    const next: WindowNode | null = x.next;
    removeFromWindow(w, x);
    evicted.push(x.slot);
    x = next;
  } while (x && x.unit === head);
}

function removeFromWindow(w: JsWindow, x: WindowNode): void {
  if (x.prev) x.prev.next = x.next;
  else w.first = x.next;
  if (x.next) x.next.prev = x.prev;
  else w.last = x.prev;
  if (x.pprev) x.pprev.pnext = x.pnext;
  else w.pfirst[x.priority] = x.pnext;
  if (x.pnext) x.pnext.pprev = x.pprev;
  else w.plast[x.priority] = x.pprev;
  w.slots[x.slot] = null;
  w.freeSlots.push(x.slot);
  w.total -= x.tokens;
  w.count--;
}
