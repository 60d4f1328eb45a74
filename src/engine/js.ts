// The engine in plain TypeScript. Its files mirror assembly/: js/arena.ts (trees of node
// objects), js/walk.ts (walks and listings), js/select.ts (the budgeted selection),
// js/window.ts (the sliding window), js/summary.ts (summary nodes), js/handles.ts (handle tables).
import { appendNode, newTree, type JsNode, type JsTree } from "./js/arena.js";
import { selectFrom } from "./js/select.js";
import { Handles } from "./js/handles.js";
import { attachSummary } from "./js/summary.js";
import { childrenOf, headPath, leavesOf, summarizedLength, walkInto, walkSummarizedInto } from "./js/walk.js";
import { summaryRefused } from "./refusals.js";
import { newWindow, windowAdd, windowEvictUnit, windowSlots, type JsWindow } from "./js/window.js";
import { checkOptions } from "../errors.js";
import { JsLexical } from "./lexical-js.js";
import type { Engine, Selection } from "./types.js";

export { Handles } from "./js/handles.js";

/**
 * The engine in plain TypeScript, over an object graph. It is the oracle of the
 * differential tests, the fallback where WASM cannot load, and the "pure TS" of the
 * benchmarks. Same behaviour as WasmEngine, operation for operation.
 */
export class JsEngine implements Engine {
  readonly kind = "js" as const;
  readonly lexical = new JsLexical();
  readonly #trees = new Handles<JsTree>();
  readonly #windows = new Handles<JsWindow>();
  #out = new Int32Array(1024);
  #visited = 0;
  readonly #counting: boolean;
  readonly #count: ((n: number) => void) | null;

  /**
   * `countVisits`: count the nodes walks and selections touch (`visited`), for the O(W)
   * tests; off by default, so the engine pays nothing for it.
   */
  constructor(options?: { countVisits?: boolean }) {
    const o = checkOptions<{ countVisits?: boolean }>(options, "new JsEngine(options)", ["countVisits"]);
    this.#counting = o.countVisits === true;
    this.#count = this.#counting ? (n) => (this.#visited += n) : null;
  }

  createTree(): number {
    return this.#trees.add(newTree());
  }

  dropTree(tree: number): void {
    this.#trees.drop(tree);
  }

  #tree(tree: number): JsTree {
    return this.#trees.get(tree);
  }

  #node(tree: number, id: number): JsNode {
    return this.#tree(tree).nodes[id]!;
  }

  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number {
    return appendNode(this.#tree(tree), parent, tokens, role, priority, flags);
  }

  reserve(): void {
    // Objects are allocated one by one: there is nothing to reserve.
  }

  size(tree: number): number {
    return this.#tree(tree).nodes.length;
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

  swapTokens(tree: number, ids: Int32Array, tokens: Int32Array): void {
    const nodes = this.#tree(tree).nodes;
    for (let k = 0; k < ids.length; k++) {
      const node = nodes[ids[k]!]!;
      const own = node.tokens;
      node.tokens = tokens[k]!;
      tokens[k] = own;
    }
  }

  setTokens(tree: number, id: number, tokens: number): void {
    this.#node(tree, id).tokens = tokens;
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
    return childrenOf(this.#tree(tree), id < 0 ? null : this.#node(tree, id));
  }

  leaves(tree: number): number[] {
    return leavesOf(this.#tree(tree));
  }

  walk(tree: number, head: number, max: number): number {
    const node = this.#node(tree, head);
    const n = Math.min(max, node.depth + 1);
    if (this.#out.length < n) this.#out = new Int32Array(Math.max(n, this.#out.length * 2));
    if (this.#counting) this.#visited += n;
    return walkInto(node, n, this.#out);
  }

  walkSummarized(tree: number, head: number, max: number, fromBelow = false): number {
    const path = headPath(this.#node(tree, head), fromBelow);
    const n = summarizedLength(path, max);
    if (this.#out.length < n) this.#out = new Int32Array(Math.max(n, this.#out.length * 2));
    if (this.#counting) this.#visited += n;
    return walkSummarizedInto(path, n, this.#out);
  }

  attachSummary(tree: number, first: number, last: number, tokens: number, priority: number): number {
    const t = this.#tree(tree);
    const id = attachSummary(t, t.nodes[first]!, t.nodes[last]!, tokens, priority);
    if (id < 0) throw summaryRefused(id, first, last);
    return id;
  }

  summaryFirst(tree: number, id: number): number {
    return this.#node(tree, id).run?.first.id ?? -1;
  }

  summaryLast(tree: number, id: number): number {
    return this.#node(tree, id).run?.last.id ?? -1;
  }

  get ids(): Int32Array {
    return this.#out;
  }

  select(tree: number, head: number, budget: number, maxMessages: number): Selection {
    return selectFrom(this.#node(tree, head), budget, maxMessages, this.#count);
  }

  selectView(tree: number, head: number, budget: number, maxMessages: number): Selection {
    return this.select(tree, head, budget, maxMessages); // (its ids are made anew, and the caller's either way)
  }

  createWindow(maxTokens: number): number {
    return this.#windows.add(newWindow(maxTokens));
  }

  dropWindow(window: number): void {
    this.#windows.drop(window);
  }

  windowAdd(window: number, tokens: number, priority: number, unit: number): { slot: number; evicted: Int32Array } {
    return windowAdd(this.#windows.get(window), tokens, priority, unit);
  }

  windowEvictUnit(window: number, unit: number): Int32Array {
    return windowEvictUnit(this.#windows.get(window), unit);
  }

  windowSlots(window: number): Int32Array {
    return windowSlots(this.#windows.get(window));
  }

  windowTokens(window: number): number {
    return this.#windows.get(window).total;
  }

  windowCount(window: number): number {
    return this.#windows.get(window).count;
  }

  get visited(): number {
    return this.#counting ? this.#visited : -1;
  }

  resetVisited(): void {
    this.#visited = 0;
  }

  memoryBytes(): number {
    return -1;
  }

  memoryUsedBytes(): number {
    return -1;
  }
}
