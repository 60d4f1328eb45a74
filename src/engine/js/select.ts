// The budgeted selection of the JS engine, rule for rule as assembly/select.ts (its header
// comment states the rules).
import { CRITICAL, FLAG_TOOL_CALLS, FLAG_UNIT_END, ROLE_TOOL, type Selection } from "../types.js";
import type { JsNode } from "./arena.js";
import { depthOn, headPath, inTurn, nextOn } from "./walk.js";

type UnitState = "outside" | "complete" | "incomplete";

function enterUnit(state: UnitState, x: JsNode): UnitState {
  if (state !== "outside") return state;
  if (x.role === ROLE_TOOL) return x.flags & FLAG_UNIT_END ? "complete" : "incomplete";
  if (x.flags & FLAG_TOOL_CALLS) return "incomplete";
  return "outside";
}

const leaveUnit = (state: UnitState, x: JsNode): UnitState => (x.role === ROLE_TOOL ? state : "outside");

/** Messages of the branch an entry carries: itself, or a summary's run. */
const carried = (x: JsNode): number => (x.run ? x.run.last.depth - x.run.first.depth + 1 : 1);

export function selectFrom(
  from: JsNode,
  budget: number,
  maxMessages: number,
  countVisited: ((n: number) => void) | null,
): Selection {
  const path = headPath(from); // the selection runs on the head's summarized path
  const head = path.start;
  let visited = 0;
  const depth = (x: JsNode) => depthOn(x, path);
  /**
   * The next entry of a level's chain (level 0: the entry above); inside a covered turn, the parents one by one (the
   * chains hold only above it).
   */
  const next = (x: JsNode, level: number): JsNode | null => {
    if (!inTurn(x, path)) return level === 0 ? nextOn(x, path) : x.up[level - 1]!;
    for (let y = nextOn(x, path); y; y = nextOn(y, path)) {
      if (level === 0 || y.priority >= level) return y;
      if (!inTurn(y, path)) return y.up[level - 1]!;
      visited++; // a message of the turn passed over
    }
    return null;
  };
  const entry = (x: JsNode, level: number): JsNode | null => (x.priority >= level ? x : next(x, level));
  /** The members of the unit whose newest member is x, newest first, down to its assistant message. */
  const unitOf = (x: JsNode, level: number): { members: JsNode[]; whole: boolean } => {
    const members = [x];
    while (x.role === ROLE_TOOL) {
      const up = next(x, level);
      if (!up) return { members, whole: false }; // no assistant message above: a broken unit is never sent
      members.push((x = up));
    }
    return { members, whole: true };
  };

  const headDepth = depth(head);
  const candidates = maxMessages > 0 && maxMessages <= headDepth ? maxMessages : headDepth + 1;
  const minDepth = headDepth + 1 - candidates;
  const kept: JsNode[] = [];

  let forced = 0;
  let state: UnitState = "outside";
  for (let x = entry(head, CRITICAL); x; x = next(x, CRITICAL)) {
    visited++;
    state = enterUnit(state, x);
    if (state !== "incomplete") {
      forced += x.tokens;
      kept.push(x);
    }
    state = leaveUnit(state, x);
  }
  // The newest user turn of the branch (none from a summary node, or with a summary on the head of a branch with no
  // user message).
  const user = head.run ? null : head.user;
  if (user) {
    visited++;
    if (user.priority < CRITICAL) {
      forced += user.tokens;
      kept.push(user);
    }
  }
  if (forced > budget) {
    countVisited?.(visited);
    return { fits: false, ids: new Int32Array(0), keptTokens: 0, forcedTokens: forced, evicted: 0 };
  }

  let left = budget - forced;
  const stops = [-1, -1, -1]; // per level: summarized depth of the newest member of the unit that stopped it
  for (let level = 2; level >= 0; level--) {
    state = "outside";
    let x = entry(head, level);
    while (x && depth(x) >= minDepth) {
      visited++;
      state = enterUnit(state, x);
      if (state === "incomplete" || x.priority > level || x === user) {
        if (
          state !== "incomplete" &&
          x.priority > level &&
          x.priority < CRITICAL &&
          x !== user &&
          depth(x) <= stops[x.priority]!
        )
          break;
        state = leaveUnit(state, x);
        x = next(x, level);
        continue;
      }
      const { members, whole } = state === "complete" ? unitOf(x, level) : { members: [x], whole: true };
      if (state === "complete") visited += members.length;
      // A unit cut by the horizon (or broken): it and everything older are outside.
      if (!whole || depth(members[members.length - 1]!) < minDepth) break;
      const cost = members.reduce((sum, m) => sum + m.tokens, 0);
      if (cost > left) {
        stops[level] = depth(x);
        break;
      }
      left -= cost;
      for (const m of members) kept.push(m);
      x = next(members[members.length - 1]!, level);
      state = "outside";
    }
  }
  countVisited?.(visited);
  // Path order: by summarized depth (a summary sits where its run was, though its id is newer).
  const ids = Int32Array.from(
    kept.sort((a, b) => depth(a) - depth(b)),
    (n) => n.id,
  );
  // Evicted: messages of the branch (root -> head; a summary as head: root -> its run's last) neither kept nor carried
  // by a kept summary.
  const branch = (head.run ? head.run.last.depth : head.depth) + 1;
  return {
    fits: true,
    ids,
    keptTokens: budget - left,
    forcedTokens: forced,
    evicted: branch - kept.reduce((n, x) => n + carried(x), 0),
  };
}
