// The JS engine's trees, as assembly/arena.ts's: nodes are objects linked to their parent,
// with the same derived links the core keeps in columns (priority chains, newest user turn).
import { ROLE_USER } from "../types.js";

/** A message node as a TypeScript developer would write it: an object linked to its parent. */
export interface JsNode {
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

export interface JsTree {
  nodes: JsNode[];
  newestRoot: JsNode | null;
}

export const newTree = (): JsTree => ({ nodes: [], newestRoot: null });

/** Appends a node under `parent` (-1: a new root); returns its id. O(1). */
export function appendNode(t: JsTree, parent: number, tokens: number, role: number, priority: number, flags: number): number {
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
