// The JS engine's trees, as assembly/arena.ts's: nodes are objects linked to their parent,
// with the same derived links the core keeps in columns (priority chains and depth taken on
// the summarized path, the newest user turn on the branch; see js/summary.ts and
// docs/summaries.md).
import { ROLE_USER } from "../types.js";

/** A node as a TypeScript developer would write it: an object linked to its parent. */
export interface JsNode {
  readonly id: number;
  /** The parent; for a summary, the parent of its run's first node (where a walk goes on). */
  readonly parent: JsNode | null;
  child: JsNode | null; // newest child (never for a summary)
  sibling: JsNode | null; // next older sibling (a summary is in no list)
  /** Nearest entries above of priority >= normal, >= high, critical: each priority level's chain. */
  up: [JsNode | null, JsNode | null, JsNode | null];
  /**
   * The nearest user message at or above this node on its branch, summaries ignored (itself, for a user message); null
   * for a summary.
   */
  user: JsNode | null;
  /**
   * Whether a summary hangs on a node from `user` down to this node's parent: the summarized
   * path would hide that turn or what follows it, so a walk from this node as the head takes
   * the turn's messages as themselves (walk.ts).
   */
  turnCovered: boolean;
  /** Depth in the tree (a summary: its first node's). */
  readonly depth: number;
  /** Depth on the summarized path. */
  vdepth: number;
  /**
   * Set at append, and again when what the node sends is rewritten (a redaction); a context's view exchanges it for one
   * build (Engine.swapTokens).
   */
  tokens: number;
  readonly role: number;
  readonly priority: number;
  readonly flags: number;
  /** The newest summary hanging on this node (its `last`). */
  skip: JsNode | null;
  /** Whether a summary's run holds this node together with its parent. */
  joined: boolean;
  /** The run a summary node stands for, and the older summary it replaced on `last`; null for a message. */
  readonly run: { readonly first: JsNode; readonly last: JsNode; readonly replaced: JsNode | null } | null;
}

export interface JsTree {
  nodes: JsNode[];
  newestRoot: JsNode | null;
}

export const newTree = (): JsTree => ({ nodes: [], newestRoot: null });

/** The entry a walk meets at original x: the summary hanging on it, or x itself. */
export const entryAt = (x: JsNode): JsNode => x.skip ?? x;

/** Nearest entries of priority >= 1, 2, 3 at or above entry e (null: none). */
const chainsFrom = (e: JsNode | null): JsNode["up"] =>
  e
    ? [e.priority >= 1 ? e : e.up[0], e.priority >= 2 ? e : e.up[1], e.priority >= 3 ? e : e.up[2]]
    : [null, null, null];

/** The summarized-path links of a node whose walk goes on at original `parent`: upK, vdepth. */
export function linksFrom(parent: JsNode | null): Pick<JsNode, "up" | "vdepth"> {
  const e = parent ? entryAt(parent) : null;
  return { up: chainsFrom(e), vdepth: e ? e.vdepth + 1 : 0 };
}

/** Appends a node under `parent` (-1: a new root); returns its id. O(1). */
export function appendNode(
  t: JsTree,
  parent: number,
  tokens: number,
  role: number,
  priority: number,
  flags: number,
): number {
  const up = parent < 0 ? null : t.nodes[parent]!;
  const e = up ? entryAt(up) : null; // the entry above on the summarized path
  const isUser = role === ROLE_USER;
  const node: JsNode = {
    id: t.nodes.length,
    parent: up,
    child: null,
    sibling: up ? up.child : t.newestRoot,
    up: chainsFrom(e),
    user: up && !isUser ? up.user : null, // itself for a user message, below
    turnCovered: !isUser && up !== null && up.user !== null && (up.turnCovered || up.skip !== null),
    vdepth: e ? e.vdepth + 1 : 0,
    depth: up ? up.depth + 1 : 0,
    tokens,
    role,
    priority,
    flags,
    skip: null,
    joined: false,
    run: null,
  };
  if (isUser) node.user = node;
  if (up) up.child = node;
  else t.newestRoot = node;
  t.nodes.push(node);
  return node.id;
}
