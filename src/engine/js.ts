import {
  CRITICAL, FLAG_TOOL_CALLS, FLAG_UNIT_END, REJECTED_ORPHANED, REJECTED_TOO_LARGE, ROLE_TOOL, ROLE_USER,
  type Engine, type Selection,
} from "./types.js";

/** A message node as a TypeScript developer would write it: an object linked to its parent. */
interface JsNode {
  readonly id: number;
  readonly parent: JsNode | null;
  child: JsNode | null; // newest child
  sibling: JsNode | null; // next older sibling
  /** Nearest ancestors of priority >= normal, >= high, critical: each priority level's chain. */
  readonly up: readonly [JsNode | null, JsNode | null, JsNode | null];
  /** The nearest user message at or above this node (itself, for a user message). */
  user: JsNode | null;
  readonly depth: number;
  readonly tokens: number;
  readonly role: number;
  readonly priority: number;
  readonly flags: number;
}

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

interface JsWindow {
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

interface JsTree {
  nodes: JsNode[];
  newestRoot: JsNode | null;
}

/**
 * The engine in plain TypeScript, over an object graph. It is the oracle of the
 * differential tests, the fallback where WASM cannot load, and the "pure TS" of the
 * benchmarks. Same behaviour as WasmEngine, operation for operation.
 */
/** Values by small integer handle; a dropped handle is handed out again (newest dropped first, as the core does). */
export class Handles<T> {
  readonly #values: (T | null)[] = [];
  readonly #free: number[] = [];

  add(value: T): number {
    const handle = this.#free.pop();
    if (handle === undefined) return this.#values.push(value) - 1;
    this.#values[handle] = value;
    return handle;
  }

  get(handle: number): T {
    return this.#values[handle]!;
  }

  drop(handle: number): void {
    this.#values[handle] = null;
    this.#free.push(handle);
  }

  /** The live values. */
  values(): T[] {
    return this.#values.filter((v): v is T => v !== null);
  }
}

export class JsEngine implements Engine {
  readonly kind = "js" as const;
  readonly #trees = new Handles<JsTree>();
  #out = new Int32Array(1024);
  #visited = 0;

  createTree(): number {
    return this.#trees.add({ nodes: [], newestRoot: null });
  }

  dropTree(tree: number): void {
    this.#trees.drop(tree);
  }

  #tree(tree: number): JsTree {
    return this.#trees.get(tree);
  }

  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number {
    const t = this.#tree(tree);
    const up = parent < 0 ? null : t.nodes[parent]!;
    const id = t.nodes.length;
    const node: JsNode = {
      id,
      parent: up,
      child: null,
      sibling: up ? up.child : t.newestRoot,
      up: up
        ? [up.priority >= 1 ? up : up.up[0], up.priority >= 2 ? up : up.up[1], up.priority >= 3 ? up : up.up[2]]
        : [null, null, null],
      user: up ? up.user : null,
      depth: up ? up.depth + 1 : 0,
      tokens,
      role,
      priority,
      flags,
    };
    if (role === ROLE_USER) node.user = node;
    if (up) up.child = node;
    else t.newestRoot = node;
    t.nodes.push(node);
    return id;
  }

  reserve(): void {
    // Objects are allocated one by one: there is nothing to reserve.
  }

  size(tree: number): number {
    return this.#tree(tree).nodes.length;
  }

  #node(tree: number, id: number): JsNode {
    return this.#tree(tree).nodes[id]!;
  }

  parent(tree: number, id: number): number {
    return this.#node(tree, id).parent?.id ?? -1;
  }

  depth(tree: number, id: number): number {
    return this.#node(tree, id).depth;
  }

  tokens(tree: number, id: number): number {
    return this.#node(tree, id).tokens;
  }

  role(tree: number, id: number): number {
    return this.#node(tree, id).role;
  }

  priority(tree: number, id: number): number {
    return this.#node(tree, id).priority;
  }

  flags(tree: number, id: number): number {
    return this.#node(tree, id).flags;
  }

  children(tree: number, id: number): number[] {
    const out: number[] = [];
    for (let c = id < 0 ? this.#tree(tree).newestRoot : this.#node(tree, id).child; c; c = c.sibling) out.push(c.id);
    return out.reverse();
  }

  leaves(tree: number): number[] {
    return this.#tree(tree).nodes.filter((n) => n.child === null).map((n) => n.id);
  }

  walk(tree: number, head: number, max: number): number {
    const n = Math.min(max, this.depth(tree, head) + 1);
    if (this.#out.length < n) this.#out = new Int32Array(Math.max(n, this.#out.length * 2));
    let node: JsNode | null = this.#node(tree, head);
    for (let slot = n - 1; slot >= 0; slot--, node = node!.parent) this.#out[slot] = node!.id;
    this.#visited += n;
    return n;
  }

  get ids(): Int32Array {
    return this.#out;
  }

  select(tree: number, head: number, budget: number, maxMessages: number): Selection {
    return selectFrom(this.#node(tree, head), budget, maxMessages, (n) => (this.#visited += n));
  }

  readonly #windows = new Handles<JsWindow>();

  createWindow(maxTokens: number): number {
    return this.#windows.add({
      maxTokens, total: 0, count: 0, first: null, last: null,
      pfirst: [null, null, null, null], plast: [null, null, null, null], slots: [], freeSlots: [],
    });
  }

  dropWindow(window: number): void {
    this.#windows.drop(window);
  }

  windowAdd(window: number, tokens: number, priority: number, unit: number): { slot: number; evicted: Int32Array } {
    const w = this.#windows.get(window);
    const evicted: number[] = [];
    if (tokens > w.maxTokens) return { slot: REJECTED_TOO_LARGE, evicted: new Int32Array(0) };
    const owner = unit >= 0 ? w.slots[unit]! : null;
    if (owner && evictsUnit(w, tokens, owner)) return { slot: REJECTED_ORPHANED, evicted: new Int32Array(0) };
    while (w.total + tokens > w.maxTokens) {
      const victim = w.pfirst.find((n) => n !== null)!;
      evictUnit(w, victim.unit ?? victim, evicted);
    }
    const slot = w.freeSlots.pop() ?? w.slots.length;
    const node: WindowNode = { slot, prev: w.last, next: null, pprev: w.plast[priority]!, pnext: null, tokens, priority, unit: owner };
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

  windowEvictUnit(window: number, unit: number): Int32Array {
    const w = this.#windows.get(window);
    const evicted: number[] = [];
    evictUnit(w, w.slots[unit]!, evicted);
    return Int32Array.from(evicted);
  }

  windowSlots(window: number): Int32Array {
    const out: number[] = [];
    for (let x = this.#windows.get(window).first; x; x = x.next) out.push(x.slot);
    return Int32Array.from(out);
  }

  windowTokens(window: number): number {
    return this.#windows.get(window).total;
  }

  windowCount(window: number): number {
    return this.#windows.get(window).count;
  }

  get visited(): number {
    return this.#visited;
  }

  resetVisited(): void {
    this.#visited = 0;
  }

  memoryBytes(): number {
    return -1;
  }
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

// The selection, rule for rule as assembly/evict.ts (its header comment states the rules).

/** The next node of a priority level's chain (level 0: the parent). */
const next = (x: JsNode, level: number): JsNode | null => (level === 0 ? x.parent : x.up[level - 1]!);
const entry = (x: JsNode, level: number): JsNode | null => (x.priority >= level ? x : next(x, level));

type UnitState = "outside" | "complete" | "incomplete";

function enterUnit(state: UnitState, x: JsNode): UnitState {
  if (state !== "outside") return state;
  if (x.role === ROLE_TOOL) return x.flags & FLAG_UNIT_END ? "complete" : "incomplete";
  if (x.flags & FLAG_TOOL_CALLS) return "incomplete";
  return "outside";
}

const leaveUnit = (state: UnitState, x: JsNode): UnitState => (x.role === ROLE_TOOL ? state : "outside");

/** The members of the unit whose newest member is x, newest first, down to its assistant message. */
function unitOf(x: JsNode, level: number): { members: JsNode[]; whole: boolean } {
  const members = [x];
  while (x.role === ROLE_TOOL) {
    const up = next(x, level);
    if (!up) return { members, whole: false }; // no assistant message above: a broken unit is never sent
    members.push((x = up));
  }
  return { members, whole: true };
}

function selectFrom(head: JsNode, budget: number, maxMessages: number, countVisited: (n: number) => void): Selection {
  const candidates = maxMessages > 0 && maxMessages <= head.depth ? maxMessages : head.depth + 1;
  const minDepth = head.depth + 1 - candidates;
  const kept: number[] = [];
  let visited = 0;

  let forced = 0;
  let forcedOutside = 0;
  let state: UnitState = "outside";
  for (let x = entry(head, CRITICAL); x; x = next(x, CRITICAL)) {
    visited++;
    state = enterUnit(state, x);
    if (state !== "incomplete") {
      forced += x.tokens;
      kept.push(x.id);
      if (x.depth < minDepth) forcedOutside++;
    }
    state = leaveUnit(state, x);
  }
  const user = head.user;
  if (user) {
    visited++;
    if (user.priority < CRITICAL) {
      forced += user.tokens;
      kept.push(user.id);
      if (user.depth < minDepth) forcedOutside++;
    }
  }
  if (forced > budget) {
    countVisited(visited);
    return { fits: false, ids: new Int32Array(0), keptTokens: 0, forcedTokens: forced, evicted: 0 };
  }

  let left = budget - forced;
  const stops = [-1, -1, -1]; // per level: newest id of the unit that stopped it
  for (let level = 2; level >= 0; level--) {
    state = "outside";
    let x = entry(head, level);
    while (x && x.depth >= minDepth) {
      visited++;
      state = enterUnit(state, x);
      if (state === "incomplete" || x.priority > level || x === user) {
        if (state !== "incomplete" && x.priority > level && x.priority < CRITICAL && x !== user && x.id <= stops[x.priority]!) break;
        state = leaveUnit(state, x);
        x = next(x, level);
        continue;
      }
      const { members, whole } = state === "complete" ? unitOf(x, level) : { members: [x], whole: true };
      if (state === "complete") visited += members.length;
      // A unit cut by the horizon (or broken): it and everything older are outside.
      if (!whole || members[members.length - 1]!.depth < minDepth) break;
      const cost = members.reduce((sum, m) => sum + m.tokens, 0);
      if (cost > left) {
        stops[level] = x.id;
        break;
      }
      left -= cost;
      for (const m of members) kept.push(m.id);
      x = next(members[members.length - 1]!, level);
      state = "outside";
    }
  }
  countVisited(visited);
  const ids = Int32Array.from(kept).sort();
  return { fits: true, ids, keptTokens: budget - left, forcedTokens: forced, evicted: candidates - (ids.length - forcedOutside) };
}
