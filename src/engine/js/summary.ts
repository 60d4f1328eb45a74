// Summary nodes of the JS engine, step for step as assembly/summary.ts (see its header and
// docs/summaries.md): check the run, create the node, mark the run, re-link what lies below.
import {
  FLAG_SUMMARY,
  FLAG_TOOL_CALLS,
  FLAG_UNIT_END,
  ROLE_ASSISTANT,
  ROLE_TOOL,
  SUMMARY_NOT_ANCESTOR,
  SUMMARY_OF_SUMMARY_NODE,
  SUMMARY_OVERLAP,
  SUMMARY_SPLITS_UNIT,
} from "../layout.js";
import { entryAt, linksFrom, type JsNode, type JsTree } from "./arena.js";

/** Attaches a summary over [first..last]; returns its id or a refusal (SUMMARY_*; nothing changed). */
export function attachSummary(t: JsTree, first: JsNode, last: JsNode, tokens: number, priority: number): number {
  if (first.run || last.run) return SUMMARY_OF_SUMMARY_NODE;
  if (first.depth > last.depth) return SUMMARY_NOT_ANCESTOR;
  // The segment of last's path from last up to first's depth: an earlier run that shares
  // nodes with it without lying inside it leaves it sideways or below (a child off the
  // segment joined to its parent), goes on above it (the top joined to its parent), or hangs
  // on it and reaches above. Earlier runs inside it are crossed in one step.
  let from: JsNode | null = null; // the segment's node below x
  for (let x: JsNode | null = last; x && x.depth >= first.depth; ) {
    for (let c = x.child; c; c = c.sibling) if (c !== from && c.joined) return SUMMARY_OVERLAP;
    if (x.skip) {
      if (x.skip.depth < first.depth) return SUMMARY_OVERLAP;
      from = x.skip.run!.first;
      x = x.skip.parent;
    } else {
      from = x;
      x = x.parent;
    }
  }
  const top = from!;
  if (top.joined) return SUMMARY_OVERLAP;
  if (top !== first) return SUMMARY_NOT_ANCESTOR;
  if (first.role === ROLE_TOOL) return SUMMARY_SPLITS_UNIT;
  if (
    (last.role === ROLE_ASSISTANT && last.flags & FLAG_TOOL_CALLS) ||
    (last.role === ROLE_TOOL && !(last.flags & FLAG_UNIT_END))
  ) {
    return SUMMARY_SPLITS_UNIT;
  }

  const s: JsNode = {
    id: t.nodes.length,
    parent: first.parent,
    child: null,
    sibling: null,
    ...linksFrom(first.parent),
    user: null, // a summary is no head: it has no turn of its own
    turnCovered: false,
    depth: first.depth,
    tokens,
    role: 0,
    priority,
    flags: FLAG_SUMMARY,
    skip: null,
    joined: false,
    run: { first, last, replaced: last.skip },
  };
  t.nodes.push(s);

  // Join the run: every node but first to its parent (inside earlier runs, only their first needs it).
  for (let x: JsNode | null = last; x && x.depth >= first.depth; ) {
    const join: JsNode = x.skip ? x.skip.run!.first : x;
    x = join.parent;
    if (join !== first) join.joined = true;
  }

  const shift = entryAt(last).vdepth - s.vdepth;
  last.skip = s;
  // A priority chain that reached the run or past it now meets s first; the summarized depth
  // drops by `shift`; a node whose newest user turn lies at or above last has s inside its turn.
  const relink = (y: JsNode) => {
    for (let level = 1; level <= 3; level++) {
      const to = y.up[level - 1]!;
      if (to === null || to.depth <= last.depth) y.up[level - 1] = s.priority >= level ? s : s.up[level - 1]!;
    }
    if (y.user && y.user.depth <= last.depth) y.turnCovered = true;
    y.vdepth -= shift;
  };
  const stack: JsNode[] = [];
  for (let c = last.child; c; c = c.sibling) stack.push(c);
  while (stack.length > 0) {
    const y = stack.pop()!;
    relink(y);
    // every summary hanging on y, the replaced ones too: a walk may start at any of them
    for (let hung = y.skip; hung; hung = hung.run!.replaced) relink(hung);
    for (let c = y.child; c; c = c.sibling) stack.push(c);
  }
  return s.id;
}
