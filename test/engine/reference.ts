// Brute-force references of the engine's rules, over plain arrays, shared by the engine tests:
// the selection of assembly/select.ts over a whole path, and chat-shaped random trees.
import fc from "fast-check";
import { FLAG_TOOL_CALLS, FLAG_UNIT_END, type Selection } from "../../src/engine/types.js";

export const SYSTEM = 0;
export const USER = 1;
export const ASSISTANT = 2;
export const TOOL = 3;
export const [LOW, NORMAL, HIGH, CRITICAL] = [0, 1, 2, 3];

export interface Node {
  parent: number;
  tokens: number;
  role: number;
  priority: number;
  flags: number;
}

export interface Ref {
  fits: boolean;
  ids: number[];
  keptTokens: number;
  forcedTokens: number;
  evicted: number;
}

/** Path indices of the tool unit each path position belongs to: [start, end] and whether it is complete. */
export function unitsOf(path: Node[]): ({ start: number; end: number; complete: boolean } | null)[] {
  const out: ({ start: number; end: number; complete: boolean } | null)[] = path.map(() => null);
  for (let i = 0; i < path.length; i++) {
    if (path[i]!.role !== ASSISTANT || !(path[i]!.flags & FLAG_TOOL_CALLS)) continue;
    let j = i + 1;
    while (j < path.length && path[j]!.role === TOOL) j++;
    const end = j - 1;
    const unit = { start: i, end, complete: end > i && (path[end]!.flags & FLAG_UNIT_END) !== 0 };
    for (let k = i; k <= end; k++) out[k] = unit;
    i = end;
  }
  return out;
}

export function pathIds(nodes: Node[], head: number): number[] {
  const ids: number[] = [];
  for (let x = head; x >= 0; x = nodes[x]!.parent) ids.push(x);
  return ids.reverse();
}

/** The rules of assembly/select.ts, brute force over the whole path root -> head. */
export function reference(nodes: Node[], head: number, budget: number, maxMessages: number): Ref {
  return selectOnPath(nodes, pathIds(nodes, head), budget, maxMessages);
}

/**
 * The rules of assembly/select.ts, brute force over a path given as ids, oldest first (originals,
 * or entries of a summarized path). `carried`: messages of the branch an entry stands for (1
 * for an original, what evicted counts); `forceUser`: whether the newest user entry is forced.
 */
export function selectOnPath(
  nodes: Node[],
  ids: number[],
  budget: number,
  maxMessages: number,
  { carried = () => 1, forceUser = true }: { carried?: (id: number) => number; forceUser?: boolean } = {},
): Ref {
  const path = ids.map((id) => nodes[id]!);
  const n = path.length;
  const candidates = maxMessages > 0 && maxMessages <= n - 1 ? maxMessages : n;
  const lo = n - candidates; // first path index inside the horizon
  const units = unitsOf(path);
  const kept = new Set<number>(); // path indices
  let forced = 0;
  path.forEach((m, i) => {
    if (m.priority === CRITICAL && (units[i] === null || units[i]!.complete)) {
      kept.add(i);
      forced += m.tokens;
    }
  });
  let user = -1;
  for (let i = n - 1; i >= 0 && forceUser; i--) {
    if (path[i]!.role === USER) {
      user = i;
      break;
    }
  }
  if (user >= 0 && !kept.has(user)) {
    kept.add(user);
    forced += path[user]!.tokens;
  }
  if (forced > budget) return { fits: false, ids: [], keptTokens: 0, forcedTokens: forced, evicted: 0 };

  let left = budget - forced;
  const stop: (number | undefined)[] = [undefined, undefined, undefined]; // per level: path index of the newest member of the unit that stopped it
  for (let level = HIGH; level >= LOW; level--) {
    let i = n - 1;
    while (i >= lo) {
      const m = path[i]!;
      const unit = units[i];
      if (unit && !unit.complete) {
        i--;
        continue;
      }
      if (m.priority !== level || i === user) {
        const s = m.priority < CRITICAL ? stop[m.priority] : undefined;
        if (m.priority > level && i !== user && s !== undefined && i <= s) break; // a more important message was dropped here
        i--;
        continue;
      }
      const from = unit ? unit.start : i;
      if (from < lo) break; // a unit cut by the horizon: it and everything older are outside
      let cost = 0;
      for (let k = from; k <= i; k++) cost += path[k]!.tokens;
      if (cost > left) {
        stop[level] = i;
        break;
      }
      left -= cost;
      for (let k = from; k <= i; k++) kept.add(k);
      i = from - 1;
    }
  }
  const keptIdx = [...kept].sort((a, b) => a - b);
  let evicted = 0; // every entry of the path not kept, by the messages it stands for, inside the horizon or not
  ids.forEach((id, i) => {
    if (!kept.has(i)) evicted += carried(id);
  });
  return {
    fits: true,
    ids: keptIdx.map((k) => ids[k]!),
    keptTokens: budget - left,
    forcedTokens: forced,
    evicted,
  };
}

export const plain = (s: Selection) => ({
  fits: s.fits,
  ids: Array.from(s.ids),
  keptTokens: s.keptTokens,
  forcedTokens: s.forcedTokens,
  evicted: s.evicted,
});

export interface Step {
  back: number;
  kind: number;
  prio: number;
  tokens: number;
  calls: number;
}

export const step: fc.Arbitrary<Step> = fc.record({
  back: fc.nat({ max: 99 }),
  kind: fc.nat({ max: 99 }),
  prio: fc.nat({ max: 99 }),
  tokens: fc.nat({ max: 40 }),
  calls: fc.integer({ min: 1, max: 3 }),
});

export const priorityOf = (p: number) => (p < 25 ? LOW : p < 60 ? NORMAL : p < 88 ? HIGH : CRITICAL);

/** Builds a chat-shaped tree from steps. `open[x]`: calls of x's unit still unanswered after x. */
export function buildTree(steps: Step[]): Node[] {
  const nodes: Node[] = [];
  const open: number[] = [];
  let last = -1;
  for (const s of steps) {
    const parent = nodes.length === 0 || s.back >= 97 ? -1 : s.back < 80 ? last : s.back % nodes.length;
    const pending = parent >= 0 ? open[parent]! : 0;
    let node: Node;
    let left = 0;
    if (pending > 0 && s.kind < 75) {
      left = pending - 1;
      node = {
        parent,
        tokens: s.tokens,
        role: TOOL,
        priority: nodes[parent]!.priority,
        flags: left === 0 ? FLAG_UNIT_END : 0,
      };
    } else if (s.kind < 40) {
      node = { parent, tokens: s.tokens, role: USER, priority: priorityOf(s.prio), flags: 0 };
    } else if (s.kind < 70) {
      node = { parent, tokens: s.tokens, role: ASSISTANT, priority: priorityOf(s.prio), flags: 0 };
    } else if (s.kind < 90) {
      left = s.calls;
      node = { parent, tokens: s.tokens, role: ASSISTANT, priority: priorityOf(s.prio), flags: FLAG_TOOL_CALLS };
    } else {
      node = {
        parent,
        tokens: s.tokens,
        role: SYSTEM,
        priority: s.prio < 70 ? CRITICAL : priorityOf(s.prio),
        flags: 0,
      };
    }
    nodes.push(node);
    open.push(left);
    last = nodes.length - 1;
  }
  return nodes;
}
