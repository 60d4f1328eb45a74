// The budgeted selection of the JS engine, rule for rule as assembly/evict.ts (its header
// comment states the rules).
import { CRITICAL, FLAG_TOOL_CALLS, FLAG_UNIT_END, ROLE_TOOL, type Selection } from "../types.js";
import type { JsNode } from "./arena.js";
import { entryAbove, headEntry } from "./walk.js";

/** The next entry of a priority level's chain on the summarized path (level 0: the entry above). */
const next = (x: JsNode, level: number): JsNode | null => (level === 0 ? entryAbove(x) : x.up[level - 1]!);
const entry = (x: JsNode, level: number): JsNode | null => (x.priority >= level ? x : next(x, level));

type UnitState = "outside" | "complete" | "incomplete";

function enterUnit(state: UnitState, x: JsNode): UnitState {
  if (state !== "outside") return state;
  if (x.role === ROLE_TOOL) return x.flags & FLAG_UNIT_END ? "complete" : "incomplete";
  if (x.flags & FLAG_TOOL_CALLS) return "incomplete";
  return "outside";
}

const leaveUnit = (state: UnitState, x: JsNode): UnitState => (x.role === ROLE_TOOL ? state : "outside");

/** The members of the unit whose newest member is x, newest first, down to its assistant message. */
function unitOf(x: JsNode, level: number): { members: JsNode[]; whole: boolean } {
  const members = [x];
  while (x.role === ROLE_TOOL) {
    const up = next(x, level);
    if (!up) return { members, whole: false }; // no assistant message above: a broken unit is never sent
    members.push((x = up));
  }
  return { members, whole: true };
}

export function selectFrom(from: JsNode, budget: number, maxMessages: number, countVisited: ((n: number) => void) | null): Selection {
  const head = headEntry(from); // the selection runs on the summarized path
  const candidates = maxMessages > 0 && maxMessages <= head.vdepth ? maxMessages : head.vdepth + 1;
  const minDepth = head.vdepth + 1 - candidates;
  const kept: JsNode[] = [];
  let visited = 0;

  let forced = 0;
  let forcedOutside = 0;
  let state: UnitState = "outside";
  for (let x = entry(head, CRITICAL); x; x = next(x, CRITICAL)) {
    visited++;
    state = enterUnit(state, x);
    if (state !== "incomplete") {
      forced += x.tokens;
      kept.push(x);
      if (x.vdepth < minDepth) forcedOutside++;
    }
    state = leaveUnit(state, x);
  }
  const user = head.user;
  if (user) {
    visited++;
    if (user.priority < CRITICAL) {
      forced += user.tokens;
      kept.push(user);
      if (user.vdepth < minDepth) forcedOutside++;
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
    while (x && x.vdepth >= minDepth) {
      visited++;
      state = enterUnit(state, x);
      if (state === "incomplete" || x.priority > level || x === user) {
        if (state !== "incomplete" && x.priority > level && x.priority < CRITICAL && x !== user && x.vdepth <= stops[x.priority]!) break;
        state = leaveUnit(state, x);
        x = next(x, level);
        continue;
      }
      const { members, whole } = state === "complete" ? unitOf(x, level) : { members: [x], whole: true };
      if (state === "complete") visited += members.length;
      // A unit cut by the horizon (or broken): it and everything older are outside.
      if (!whole || members[members.length - 1]!.vdepth < minDepth) break;
      const cost = members.reduce((sum, m) => sum + m.tokens, 0);
      if (cost > left) {
        stops[level] = x.vdepth;
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
  const ids = Int32Array.from(kept.sort((a, b) => a.vdepth - b.vdepth), (n) => n.id);
  return { fits: true, ids, keptTokens: budget - left, forcedTokens: forced, evicted: candidates - (ids.length - forcedOutside) };
}
