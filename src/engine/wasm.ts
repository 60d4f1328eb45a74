import type { CoreExports } from "./core-exports.js";
import type { LexicalIndex } from "./lexical.js";
import { WasmLexical } from "./lexical-wasm.js";
import { instantiateCore, outOfMemory, summaryRefused } from "./refusals.js";
import type { Engine, Selection } from "./types.js";
import {
  COL_CHILD,
  COL_META,
  COL_PARENT,
  COL_SIBLING,
  COL_SKIP,
  COL_TOKENS,
  FLAG_JOINED,
  FLAG_SUMMARY,
  SUMMARY_OUT_OF_MEMORY,
  DEPTH_MASK,
  FLAGS_SHIFT,
  PRIORITY_SHIFT,
  ROLE_SHIFT,
  H_BLOCK,
  H_CAP_LOG2,
  H_NEWEST_ROOT,
  H_SIZE,
  R_EVICTED,
  R_FORCED_TOKENS,
  R_KEPT_TOKENS,
  TREE_HEADER_BYTES,
  WINDOW_OUT_OF_MEMORY,
} from "./layout.js";

export type { WasmSource } from "./refusals.js";
import type { WasmSource } from "./refusals.js";

const PAGE = 65536;

/** The WebAssembly engine: one instance of the core; trees live in its linear memory. */
export class WasmEngine implements Engine {
  readonly kind = "wasm" as const;
  #lexical: WasmLexical | undefined;
  readonly #x: CoreExports;
  // Views over linear memory. memory.grow detaches the old ArrayBuffer (every view over
  // it reads as length 0), so after any call that may grow memory the views are rebuilt.
  #i32: Int32Array;
  #f64: Float64Array;
  #table = 0; // byte address of the tree table; it moves only in createTree

  private constructor(exports: CoreExports) {
    this.#x = exports;
    this.#i32 = new Int32Array(exports.memory.buffer);
    this.#f64 = new Float64Array(exports.memory.buffer);
    this.#result = exports.selectResult();
  }

  readonly #result: number; // byte address of the selection's result block (static data, 8-aligned)

  /** Instantiates the core from a compiled module or its bytes. */
  static async create(source: WasmSource, options: { maxMemoryMB?: number } = {}): Promise<WasmEngine> {
    const engine = new WasmEngine(await instantiateCore(source));
    if (options.maxMemoryMB !== undefined) {
      engine.#x.setMemoryLimit(Math.floor((options.maxMemoryMB * 1024 * 1024) / PAGE));
    }
    return engine;
  }

  /** Rebuilds the views after memory grew: a grow detaches the old buffer, and every view over it reads as length 0. */
  #sync(): void {
    if (this.#i32.length === 0) {
      this.#i32 = new Int32Array(this.#x.memory.buffer);
      this.#f64 = new Float64Array(this.#x.memory.buffer);
      this.#ids = new Int32Array(this.#x.memory.buffer, this.#out, this.#outCap);
    }
  }

  /** i32 index of field `field` (a byte offset) of a tree's header. */
  #h(tree: number, field: number): number {
    return (this.#table + tree * TREE_HEADER_BYTES + field) >>> 2;
  }

  // Reads come in runs on one tree (the fields of a message, the messages of a context), so
  // the last tree's block is remembered. Calls that can move a block (append, reserve,
  // createTree, dropTree) forget it.
  #lastTree = -1;
  #lastBlock = 0;
  #lastCapLog2 = 0;

  /** Byte address of column `col` of a tree. */
  #col(tree: number, col: number): number {
    if (tree !== this.#lastTree) {
      this.#lastBlock = this.#i32[this.#h(tree, H_BLOCK)]! >>> 0;
      this.#lastCapLog2 = this.#i32[this.#h(tree, H_CAP_LOG2)]!;
      this.#lastTree = tree;
    }
    return this.#lastBlock + (col << this.#lastCapLog2);
  }

  createTree(): number {
    const tree = this.#x.createTree();
    this.#lastTree = -1;
    if (tree < 0) throw outOfMemory("hold a new chat");
    this.#sync();
    this.#table = this.#x.treeTable();
    return tree;
  }

  dropTree(tree: number): void {
    this.#x.dropTree(tree);
    this.#lastTree = -1;
  }

  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number {
    const id = this.#x.append(tree, parent, tokens, role, priority, flags);
    this.#lastTree = -1;
    if (id < 0) throw outOfMemory(`hold message ${this.size(tree)}`);
    if (this.#i32.length === 0) this.#sync();
    return id;
  }

  reserve(tree: number, n: number): void {
    const ok = this.#x.reserveTree(tree, n);
    this.#lastTree = -1;
    if (!ok) throw outOfMemory(`hold ${n} messages in one chat`);
    this.#sync();
  }

  size(tree: number): number {
    return this.#i32[this.#h(tree, H_SIZE)]!;
  }

  parent(tree: number, id: number): number {
    const p = this.#col(tree, COL_PARENT);
    const a = this.#i32[(p >>> 2) + id]! >>> 0;
    return a === 0 ? -1 : (a - p) >>> 2;
  }

  #meta(tree: number, id: number): number {
    return this.#i32[(this.#col(tree, COL_META) >>> 2) + id]! >>> 0;
  }

  depth(tree: number, id: number): number {
    return this.#meta(tree, id) & DEPTH_MASK;
  }

  tokens(tree: number, id: number): number {
    return this.#i32[(this.#col(tree, COL_TOKENS) >>> 2) + id]!;
  }

  swapTokens(tree: number, ids: Int32Array, tokens: Int32Array): void {
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const own = this.tokens(tree, id);
      this.#x.setTokens(tree, id, tokens[k]!);
      tokens[k] = own;
    }
  }

  setTokens(tree: number, id: number, tokens: number): void {
    this.#x.setTokens(tree, id, tokens);
  }

  role(tree: number, id: number): number {
    return (this.#meta(tree, id) >>> ROLE_SHIFT) & 3;
  }

  priority(tree: number, id: number): number {
    return (this.#meta(tree, id) >>> PRIORITY_SHIFT) & 3;
  }

  flags(tree: number, id: number): number {
    return (this.#meta(tree, id) >>> FLAGS_SHIFT) & ~FLAG_JOINED; // the core's own bit stays inside
  }

  children(tree: number, id: number): number[] {
    if (id >= 0 && this.flags(tree, id) & FLAG_SUMMARY) return []; // its child column holds the summary it replaced
    const child = this.#col(tree, COL_CHILD) >>> 2;
    const sibling = this.#col(tree, COL_SIBLING) >>> 2;
    const out: number[] = [];
    // The core keeps the newest child first; callers want creation order.
    for (
      let c = id < 0 ? this.#i32[this.#h(tree, H_NEWEST_ROOT)]! : this.#i32[child + id]!;
      c >= 0;
      c = this.#i32[sibling + c]!
    ) {
      out.push(c);
    }
    return out.reverse();
  }

  leaves(tree: number): number[] {
    const out = this.#reserve(this.size(tree));
    const n = this.#x.leavesInto(tree, out);
    return Array.from(this.#i32.subarray(out >>> 2, (out >>> 2) + n));
  }

  walk(tree: number, head: number, max: number): number {
    const n = Math.min(max, this.depth(tree, head) + 1);
    return this.#x.walkInto(tree, head, n, this.#reserve(n));
  }

  walkSummarized(tree: number, head: number, max: number, fromBelow = false): number {
    const out = this.#reserve(Math.min(max, this.depth(tree, head) + 1)); // the summarized path is never longer
    return this.#x.walkSummarizedInto(tree, head, max, fromBelow ? 1 : 0, out);
  }

  attachSummary(tree: number, first: number, last: number, tokens: number, priority: number): number {
    const stack = this.#reserve(this.size(tree)); // the nodes below last, at most
    const id = this.#x.attachSummary(tree, first, last, tokens, priority, stack);
    this.#lastTree = -1;
    if (id === SUMMARY_OUT_OF_MEMORY) throw outOfMemory(`hold a summary in a chat of ${this.size(tree)} messages`);
    if (id < 0) throw summaryRefused(id, first, last);
    this.#sync();
    return id;
  }

  summaryFirst(tree: number, id: number): number {
    return this.flags(tree, id) & FLAG_SUMMARY ? this.#i32[(this.#col(tree, COL_SIBLING) >>> 2) + id]! : -1;
  }

  summaryLast(tree: number, id: number): number {
    return this.flags(tree, id) & FLAG_SUMMARY ? this.#i32[(this.#col(tree, COL_SKIP) >>> 2) + id]! : -1;
  }

  get ids(): Int32Array {
    this.#sync();
    return this.#ids;
  }

  select(tree: number, head: number, budget: number, maxMessages: number): Selection {
    return this.#select(tree, head, budget, maxMessages, true);
  }

  selectView(tree: number, head: number, budget: number, maxMessages: number): Selection {
    return this.#select(tree, head, budget, maxMessages, false);
  }

  #select(tree: number, head: number, budget: number, maxMessages: number, copy: boolean): Selection {
    const room = this.depth(tree, head) + 1;
    const out = this.#reserve(room);
    const count = this.#x.selectInto(tree, head, budget, maxMessages, out, room);
    this.#sync(); // the sort's scratch may have grown memory (assembly/depth-sort.ts)
    const r = this.#result;
    const forcedTokens = this.#f64[(r + R_FORCED_TOKENS) >>> 3]!;
    if (count < 0) return { fits: false, ids: new Int32Array(0), keptTokens: 0, forcedTokens, evicted: 0 };
    const from = (out >>> 2) + room - count; // the kept ids end where the room does
    return {
      fits: true,
      // A copy is the caller's (a context keeps it); a view costs no array (an Int32Array of
      // more than 16 ids has its bytes outside the heap: allocating one costs far more than a view).
      ids: copy ? this.#i32.slice(from, from + count) : this.#i32.subarray(from, from + count),
      keptTokens: this.#i32[(r + R_KEPT_TOKENS) >>> 2]!,
      forcedTokens,
      evicted: this.#i32[(r + R_EVICTED) >>> 2]!,
    };
  }

  createWindow(maxTokens: number): number {
    const w = this.#x.createWindow(maxTokens);
    if (w < 0) throw outOfMemory("hold a new window");
    this.#sync();
    return w;
  }

  dropWindow(window: number): void {
    this.#x.dropWindow(window);
  }

  windowAdd(window: number, tokens: number, priority: number, unit: number): { slot: number; evicted: Int32Array } {
    const out = this.#reserve(this.#x.windowCount(window)) >>> 2; // room for every slot it may evict
    const slot = this.#x.windowAdd(window, tokens, priority, unit);
    if (slot === WINDOW_OUT_OF_MEMORY) throw outOfMemory("add a message to the window");
    this.#sync();
    const n = this.#x.evictedCount.value as number;
    return { slot, evicted: this.#i32.subarray(out, out + n) };
  }

  windowEvictUnit(window: number, unit: number): Int32Array {
    const out = this.#reserve(this.#x.windowCount(window)) >>> 2;
    this.#x.windowEvictUnit(window, unit);
    return this.#i32.subarray(out, out + (this.#x.evictedCount.value as number));
  }

  windowSlots(window: number): Int32Array {
    const out = this.#reserve(this.#x.windowCount(window));
    const n = this.#x.windowSlotsInto(window, out);
    return this.#i32.subarray(out >>> 2, (out >>> 2) + n);
  }

  windowTokens(window: number): number {
    return this.#x.windowTokens(window);
  }

  windowCount(window: number): number {
    return this.#x.windowCount(window);
  }

  // The output buffer: its address and capacity are kept here, so that a walk makes one
  // call into WASM, not two.
  #out = 0;
  #outCap = 0;
  #ids = new Int32Array(0);

  /** The output buffer's address, with room for n ids. */
  #reserve(n: number): number {
    if (n > this.#outCap) {
      const capacity = Math.max(256, 2 ** Math.ceil(Math.log2(n))); // what the core allocates: a power of two
      const out = this.#x.reserveOut(capacity);
      if (out === 0) throw outOfMemory(`list ${n} messages`);
      this.#out = out;
      this.#outCap = capacity;
      this.#i32 = new Int32Array(0); // forces #sync to rebuild both views
      this.#sync();
    }
    return this.#out;
  }

  get visited(): number {
    return this.#x.COUNTS_VISITS.value === 1 ? (this.#x.visited.value as number) : -1;
  }

  resetVisited(): void {
    this.#x.resetVisited();
  }

  memoryBytes(): number {
    return this.#x.memoryPages() * PAGE;
  }

  memoryUsedBytes(): number {
    return this.#x.memoryUsed();
  }

  /**
   * The instance's raw exports, for a module that shares this core's memory (the similarity
   * index). After any of its calls that may grow memory, it calls `memoryMoved()`.
   */
  rawExports(): WebAssembly.Exports {
    return this.#x as unknown as WebAssembly.Exports;
  }

  get lexical(): LexicalIndex {
    return (this.#lexical ??= new WasmLexical(this.rawExports(), () => this.memoryMoved()));
  }

  /** Rebuilds this engine's views after another user of the shared memory grew it (the old buffer is detached). */
  memoryMoved(): void {
    this.#sync();
  }
}
