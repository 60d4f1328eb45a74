import type { Engine } from "./types.js";

/** A message node as a TypeScript developer would write it: an object linked to its parent. */
interface JsNode {
  readonly id: number;
  readonly parent: JsNode | null;
  child: JsNode | null; // newest child
  sibling: JsNode | null; // next older sibling
  readonly depth: number;
  readonly tokens: number;
  readonly role: number;
  readonly priority: number;
  readonly flags: number;
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
export class JsEngine implements Engine {
  readonly kind = "js" as const;
  readonly #trees: (JsTree | null)[] = [];
  readonly #free: number[] = [];
  #out = new Int32Array(1024);
  #visited = 0;

  createTree(): number {
    const tree: JsTree = { nodes: [], newestRoot: null };
    const handle = this.#free.pop();
    if (handle !== undefined) {
      this.#trees[handle] = tree;
      return handle;
    }
    this.#trees.push(tree);
    return this.#trees.length - 1;
  }

  dropTree(tree: number): void {
    this.#trees[tree] = null;
    this.#free.push(tree);
  }

  #tree(tree: number): JsTree {
    return this.#trees[tree]!;
  }

  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number {
    const t = this.#tree(tree);
    const up = parent < 0 ? null : t.nodes[parent]!;
    const node: JsNode = {
      id: t.nodes.length,
      parent: up,
      child: null,
      sibling: up ? up.child : t.newestRoot,
      depth: up ? up.depth + 1 : 0,
      tokens,
      role,
      priority,
      flags,
    };
    if (up) up.child = node;
    else t.newestRoot = node;
    t.nodes.push(node);
    return node.id;
  }

  popNewest(tree: number): void {
    const t = this.#tree(tree);
    const node = t.nodes.pop();
    if (!node) return;
    if (node.parent) node.parent.child = node.sibling;
    else t.newestRoot = node.sibling;
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

  walk(tree: number, head: number, max: number): Int32Array {
    const n = Math.min(max, this.depth(tree, head) + 1);
    if (this.#out.length < n) this.#out = new Int32Array(Math.max(n, this.#out.length * 2));
    let slot = n;
    for (let node: JsNode | null = this.#node(tree, head); node && slot > 0; node = node.parent) {
      this.#out[--slot] = node.id;
    }
    this.#visited += n - slot;
    return this.#out.subarray(slot, n);
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
