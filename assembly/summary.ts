// Summary nodes: overlays on the tree (see docs/summaries.md and arena.ts's columns).
//
// A summary stands for a run [first..last] of a branch (first an ancestor-or-self of last)
// and hangs on `last` (its `skip`): a walk that reaches `last` emits the summary and goes on
// at parent(first). The originals stay. Attaching checks the run, creates the node, marks the
// run's nodes as covered, and re-links the nodes already below `last`, whose summarized path
// now goes through the summary.

import {
  header, reserveTree, linkEntry, entryAt, column,
  COL_PARENT, COL_CHILD, COL_SIBLING, COL_UP1, COL_USER, COL_TOKENS, COL_META, COL_SKIP, COL_VDEPTH,
  DEPTH_MASK, ROLE_SHIFT, PRIORITY_SHIFT, FLAGS_SHIFT, ROLE_ASSISTANT, ROLE_TOOL,
  FLAG_TOOL_CALLS, FLAG_SUMMARY, FLAG_UNIT_END, FLAG_JOINED, USER_COVERED,
  H_BLOCK, H_CAP_LOG2, H_SIZE,
} from "./arena";

/** attachSummary's refusals (nothing is changed): */
export const SUMMARY_NOT_ANCESTOR: i32 = -1; // first is not an ancestor-or-self of last
export const SUMMARY_OVERLAP: i32 = -2; // the run shares nodes with a run it does not hold whole
export const SUMMARY_SPLITS_UNIT: i32 = -3; // the run would cut a tool unit
export const SUMMARY_OF_SUMMARY_NODE: i32 = -4; // first or last is itself a summary node
export const SUMMARY_OUT_OF_MEMORY: i32 = -5;

// Column addresses of the tree being changed, set at the start of each call (and again
// after the block may have moved).
let b: usize = 0;
let k: i32 = 0;
let cParent: usize = 0;
let cChild: usize = 0;
let cSibling: usize = 0;
let cMeta: usize = 0;
let cSkip: usize = 0;

function setColumns(h: usize): void {
  b = <usize>load<u32>(h + H_BLOCK);
  k = load<i32>(h + H_CAP_LOG2);
  cParent = column(b, k, COL_PARENT);
  cChild = column(b, k, COL_CHILD);
  cSibling = column(b, k, COL_SIBLING);
  cMeta = column(b, k, COL_META);
  cSkip = column(b, k, COL_SKIP);
}

@inline function get(col: usize, x: i32): i32 {
  return load<i32>(col + (<usize>x << 2));
}
@inline function put(col: usize, x: i32, v: i32): void {
  store<i32>(col + (<usize>x << 2), v);
}
@inline function depthOf(x: i32): i32 {
  return <i32>(load<u32>(cMeta + (<usize>x << 2)) & DEPTH_MASK);
}
@inline function parentOf(x: i32): i32 {
  const a = <usize>load<u32>(cParent + (<usize>x << 2));
  return a == 0 ? -1 : <i32>((a - cParent) >> 2);
}
@inline function joined(x: i32): bool {
  return ((load<u32>(cMeta + (<usize>x << 2)) >> FLAGS_SHIFT) & FLAG_JOINED) != 0;
}

/**
 * Attaches a summary of `tokens` at `priority` over the run [first..last]; returns its id,
 * or a refusal (SUMMARY_*; nothing changed). `stack` has room for the tree's size in ids.
 * O(nodes of the run outside earlier runs, their children, and the nodes below last).
 */
export function attachSummary(tree: i32, first: i32, last: i32, tokens: i32, priority: i32, stack: usize): i32 {
  const h = header(tree);
  setColumns(h);
  const mf = load<u32>(cMeta + (<usize>first << 2));
  const ml = load<u32>(cMeta + (<usize>last << 2));
  if (((mf >> FLAGS_SHIFT) | (ml >> FLAGS_SHIFT)) & FLAG_SUMMARY) return SUMMARY_OF_SUMMARY_NODE;
  const df = <i32>(mf & DEPTH_MASK);
  const dl = <i32>(ml & DEPTH_MASK);
  if (df > dl) return SUMMARY_NOT_ANCESTOR;

  // Check the segment of last's path from last up to first's depth. An earlier run that
  // shares nodes with it without lying inside it either leaves it sideways or below (a
  // child off the segment is joined to its parent), or goes on above it (the top node is
  // joined to its parent), or hangs on it and reaches above. Earlier runs inside it are
  // crossed in one step: they were checked against everything older when attached.
  let x = last;
  let from = -1; // the segment's node below x
  let top = -1; // the segment's node at first's depth, once reached
  while (x >= 0 && depthOf(x) >= df) {
    for (let c = get(cChild, x); c >= 0; c = get(cSibling, c)) {
      if (c != from && joined(c)) return SUMMARY_OVERLAP;
    }
    const s = get(cSkip, x);
    if (s >= 0) {
      if (depthOf(s) < df) return SUMMARY_OVERLAP;
      top = from = get(cSibling, s); // that run's first
      x = parentOf(s);
    } else {
      top = from = x;
      x = parentOf(x);
    }
  }
  if (joined(top)) return SUMMARY_OVERLAP;
  if (top != first) return SUMMARY_NOT_ANCESTOR;
  const roleFirst = (mf >> ROLE_SHIFT) & 3;
  const roleLast = (ml >> ROLE_SHIFT) & 3;
  const flagsLast = ml >> FLAGS_SHIFT;
  if (roleFirst == ROLE_TOOL) return SUMMARY_SPLITS_UNIT;
  const openCall = roleLast == ROLE_ASSISTANT && (flagsLast & FLAG_TOOL_CALLS) != 0;
  if (openCall || (roleLast == ROLE_TOOL && !(flagsLast & FLAG_UNIT_END))) {
    return SUMMARY_SPLITS_UNIT;
  }

  const s = load<i32>(h + H_SIZE);
  if (!reserveTree(tree, s + 1)) return SUMMARY_OUT_OF_MEMORY;
  setColumns(h); // the block may have moved

  // The node: in no child list; parent = first's parent, so the walk goes on from there.
  const i = <usize>s << 2;
  store<u32>(cParent + i, load<u32>(cParent + (<usize>first << 2)));
  put(cChild, s, get(cSkip, last)); // the summary it replaces on last (inside its run), -1 if none
  put(cSibling, s, first);
  store<i32>(column(b, k, COL_TOKENS) + i, tokens);
  store<u32>(cMeta + i, <u32>df | (<u32>priority << PRIORITY_SHIFT) | (FLAG_SUMMARY << FLAGS_SHIFT));
  put(cSkip, s, last);
  const above = parentOf(first) < 0 ? -1 : entryAt(b, k, parentOf(first));
  linkEntry(b, k, s, above, above < 0 ? 0 : load<u32>(cMeta + (<usize>above << 2)));
  put(column(b, k, COL_USER), s, -1); // a summary is no head: it has no turn of its own
  store<i32>(h + H_SIZE, s + 1);

  // Join the run: every node but first to its parent (inside earlier runs, only their first needs it).
  x = last;
  while (x >= 0 && depthOf(x) >= df) {
    const inner = get(cSkip, x);
    const join = inner >= 0 ? get(cSibling, inner) : x;
    x = parentOf(inner >= 0 ? inner : x);
    const at = cMeta + (<usize>join << 2);
    if (join != first) store<u32>(at, load<u32>(at) | (FLAG_JOINED << FLAGS_SHIFT));
  }

  // Hang it on last, then re-link what lies below: links into the run now lead to the summary.
  const cVdepth = column(b, k, COL_VDEPTH);
  const shift = get(cVdepth, entryAt(b, k, last)) - get(cVdepth, s);
  put(cSkip, last, s);
  let n = 0;
  for (let c = get(cChild, last); c >= 0; c = get(cSibling, c)) put(stack, n++, c);
  while (n > 0) {
    const y = get(stack, --n);
    relink(y, s, dl, shift, cVdepth);
    // every summary hanging on y, the replaced ones too: a walk may start at any of them
    for (let hung = get(cSkip, y); hung >= 0; hung = get(cChild, hung)) relink(hung, s, dl, shift, cVdepth);
    for (let c = get(cChild, y); c >= 0; c = get(cSibling, c)) put(stack, n++, c);
  }
  return s;
}

/**
 * Re-links node y below the run (which ends at depth dl) through summary s: a priority chain
 * that reached the run or past it now meets s first (s, when important enough, or where s's
 * own chain goes); the summarized depth drops by `shift`. When y's newest user turn lies at
 * or above the run's last, s hangs inside that turn: y's turn is marked covered (arena.ts).
 */
function relink(y: i32, s: i32, dl: i32, shift: i32, cVdepth: usize): void {
  const sPriority = <i32>((load<u32>(cMeta + (<usize>s << 2)) >> PRIORITY_SHIFT) & 3);
  for (let level = 1; level <= 3; level++) {
    const up = column(b, k, COL_UP1 + ((<usize>level - 1) << 2));
    const t = get(up, y);
    if (t < 0 || depthOf(t) <= dl) put(up, y, sPriority >= level ? s : get(up, s));
  }
  const user = column(b, k, COL_USER);
  const u = get(user, y); // -1 for a summary hanging below
  if (u >= 0 && depthOf(u & ~USER_COVERED) <= dl) put(user, y, u | USER_COVERED);
  put(cVdepth, y, get(cVdepth, y) - shift);
}
