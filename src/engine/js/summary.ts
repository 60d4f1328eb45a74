// Summary nodes of the JS engine, step for step as assembly/summary.ts (see its header and
// docs/summaries.md): check the run, create the node, mark the run, re-link what lies below.
import {
  FLAG_SUMMARY, FLAG_TOOL_CALLS, FLAG_UNIT_END, ROLE_ASSISTANT, ROLE_TOOL,
  SUMMARY_NOT_ANCESTOR, SUMMARY_OF_SUMMARY_NODE, SUMMARY_OVERLAP, SUMMARY_SPLITS_UNIT,
} from "../layout.js";
import { entryAt, linksFrom, type JsNode, type JsTree } from "./arena.js";

/** The outermost summary holding summary c's run (c itself if none). */
function outermost(c: JsNode): JsNode {
  while (c.cover) c = c.cover;
  return c;
}

/** Attaches a summary over [first..last]; returns its id or a refusal (SUMMARY_*; nothing changed). */
export function attachSummary(t: JsTree, first: JsNode, last: JsNode, tokens: number, priority: number): number {
  if (first.run || last.run) return SUMMARY_OF_SUMMARY_NODE;
  if (first.depth > last.depth) return SUMMARY_NOT_ANCESTOR;
  // From last up to first's depth, crossing covered runs whole: a covered node must belong
  // to a run inside this one, met at its own last.
  let top: JsNode | null = null;
  for (let x: JsNode | null = last; x && x.depth >= first.depth; ) {
    if (!x.cover) {
      top = x;
      x = x.parent;
      continue;
    }
    const o = outermost(x.cover);
    if (o.run!.last !== x || o.depth < first.depth) return SUMMARY_OVERLAP;
    top = o.run!.first;
    x = o.parent;
  }
  if (top !== first) return SUMMARY_NOT_ANCESTOR;
  if (first.role === ROLE_TOOL) return SUMMARY_SPLITS_UNIT;
  if ((last.role === ROLE_ASSISTANT && last.flags & FLAG_TOOL_CALLS) || (last.role === ROLE_TOOL && !(last.flags & FLAG_UNIT_END))) {
    return SUMMARY_SPLITS_UNIT;
  }

  const s: JsNode = {
    id: t.nodes.length,
    parent: first.parent,
    child: null,
    sibling: null,
    ...linksFrom(first.parent),
    depth: first.depth,
    tokens,
    role: 0,
    priority,
    flags: FLAG_SUMMARY,
    skip: null,
    cover: null,
    run: { first, last },
  };
  t.nodes.push(s);

  for (let x: JsNode | null = last; x && x.depth >= first.depth; ) {
    if (!x.cover) {
      x.cover = s;
      x = x.parent;
    } else {
      const o = outermost(x.cover);
      o.cover = s;
      x = o.parent;
    }
  }

  const shift = entryAt(last).vdepth - s.vdepth;
  last.skip = s;
  const inRun = (n: JsNode | null) => n !== null && n.depth >= first.depth && n.depth <= last.depth;
  // A priority chain that reached the run or past it now meets s first; a newest user turn
  // inside the run is hidden; the summarized depth drops by `shift`.
  const relink = (y: JsNode) => {
    for (let level = 1; level <= 3; level++) {
      const to = y.up[level - 1]!;
      if (to === null || to.depth <= last.depth) y.up[level - 1] = s.priority >= level ? s : s.up[level - 1]!;
    }
    if (inRun(y.user)) y.user = s.user;
    y.vdepth -= shift;
  };
  const stack: JsNode[] = [];
  for (let c = last.child; c; c = c.sibling) stack.push(c);
  while (stack.length > 0) {
    const y = stack.pop()!;
    relink(y);
    if (y.skip) relink(y.skip);
    for (let c = y.child; c; c = c.sibling) stack.push(c);
  }
  return s.id;
}
