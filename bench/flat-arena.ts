// A flat typed-array arena in plain TypeScript, for the benchmarks only.
//
// Same layout idea as assembly/arena.ts (struct-of-arrays per tree, capacity a power of
// two, growth by doubling) and the same walk, but running as ordinary JS over typed
// arrays. Putting it beside the WASM engine and the object-graph JsEngine separates what
// the memory layout gives (flat vs objects) from what WebAssembly gives (WASM vs flat).
//
// It implements the subset of the Engine interface the benchmarks use; it is not part of
// the package and nothing in src/ may import it.

import { Handles } from "../src/engine/js.js";

const MIN_CAP = 16;

/** One tree: eight columns indexed by node id. Parents are ids (-1 for a root). */
export class FlatTree {
  parent: Int32Array;
  child: Int32Array; // newest child, -1 for a leaf
  sibling: Int32Array; // next older sibling, -1 at the end
  depth: Int32Array;
  tokens: Int32Array;
  role: Uint8Array;
  priority: Uint8Array;
  flags: Uint8Array;
  size = 0;
  newestRoot = -1;

  constructor(capacity = MIN_CAP) {
    this.parent = new Int32Array(capacity);
    this.child = new Int32Array(capacity);
    this.sibling = new Int32Array(capacity);
    this.depth = new Int32Array(capacity);
    this.tokens = new Int32Array(capacity);
    this.role = new Uint8Array(capacity);
    this.priority = new Uint8Array(capacity);
    this.flags = new Uint8Array(capacity);
  }

  get capacity(): number {
    return this.parent.length;
  }

  /** Bytes held by the columns (capacity, not size: the doubling slack counts). */
  get byteLength(): number {
    return 5 * 4 * this.capacity + 3 * this.capacity;
  }

  /** Moves every column into one twice as large. O(size), amortized O(1) per append. */
  grow(): void {
    const cap = this.capacity * 2;
    const i32 = (old: Int32Array): Int32Array => {
      const next = new Int32Array(cap);
      next.set(old);
      return next;
    };
    const u8 = (old: Uint8Array): Uint8Array => {
      const next = new Uint8Array(cap);
      next.set(old);
      return next;
    };
    this.parent = i32(this.parent);
    this.child = i32(this.child);
    this.sibling = i32(this.sibling);
    this.depth = i32(this.depth);
    this.tokens = i32(this.tokens);
    this.role = u8(this.role);
    this.priority = u8(this.priority);
    this.flags = u8(this.flags);
  }

  append(parent: number, tokens: number, role: number, priority: number, flags: number): number {
    const id = this.size;
    if (id === this.parent.length) this.grow();
    if (parent < 0) {
      this.parent[id] = -1;
      this.depth[id] = 0;
      this.sibling[id] = this.newestRoot;
      this.newestRoot = id;
    } else {
      this.parent[id] = parent;
      this.depth[id] = this.depth[parent]! + 1;
      this.sibling[id] = this.child[parent]!;
      this.child[parent] = id;
    }
    this.child[id] = -1;
    this.tokens[id] = tokens;
    this.role[id] = role;
    this.priority[id] = priority;
    this.flags[id] = flags;
    this.size = id + 1;
    return id;
  }
}

/** The flat arena behind the same calls as the engines: trees by handle, one shared output buffer. */
export class FlatEngine {
  readonly kind = "flat" as const;
  readonly #trees = new Handles<FlatTree>();
  #out = new Int32Array(1024);
  #visited = 0;

  createTree(): number {
    return this.#trees.add(new FlatTree());
  }

  dropTree(tree: number): void {
    this.#trees.drop(tree);
  }

  tree(tree: number): FlatTree {
    return this.#trees.get(tree);
  }

  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number {
    return this.#trees.get(tree).append(parent, tokens, role, priority, flags);
  }

  size(tree: number): number {
    return this.#trees.get(tree).size;
  }

  parent(tree: number, id: number): number {
    return this.#trees.get(tree).parent[id]!;
  }

  depth(tree: number, id: number): number {
    return this.#trees.get(tree).depth[id]!;
  }

  /**
   * Writes the last `max` nodes of the path root -> `head`, oldest first, to `ids[0..n)` and
   * returns n: the walk of assembly/walk.ts (fill from the end, follow parents), bounded by
   * the head's depth as WasmEngine.walk bounds it, with the same contract. O(W).
   */
  walk(tree: number, head: number, max: number): number {
    const t = this.#trees.get(tree);
    const n = Math.min(max, t.depth[head]! + 1);
    if (this.#out.length < n) this.#out = new Int32Array(Math.max(n, this.#out.length * 2));
    const out = this.#out;
    const parent = t.parent;
    let node = head;
    for (let slot = n - 1; slot >= 0; slot--, node = parent[node]!) out[slot] = node;
    this.#visited += n;
    return n;
  }

  get ids(): Int32Array {
    return this.#out;
  }

  get visited(): number {
    return this.#visited;
  }

  /** Bytes of all live trees' columns. */
  memoryBytes(): number {
    let bytes = 0;
    for (const t of this.#trees.values()) bytes += t.byteLength;
    return bytes;
  }
}
