// Budgeted selection: which messages of a branch a request keeps.
//
// Messages are kept in order of importance: every CRITICAL message of the branch and its
// newest user turn first (forced, from anywhere on the branch), then HIGH, NORMAL and LOW, each level newest first
// while its messages fit the budget. A level stops at its first message that does not
// fit, and at the first more important message that was not kept: nothing reaches past
// a dropped message that matters more. An assistant message with tool calls and the tool
// results answering it form one unit (kept or dropped whole; units still missing an
// answer are never sent). `maxMessages` bounds the branch's newest messages considered (a
// unit it cuts is left out); the forced messages are kept from anywhere on the branch.
//
// Each level walks its own chain (upK: nearest ancestor of priority >= K), so a call
// touches the messages it keeps, the more important ones it crosses, and one stopping
// unit per level: O(W), never the whole history.

import {
  header, treeColumn, countVisited,
  COL_PARENT, COL_UP1, COL_UP2, COL_UP3, COL_USER, COL_TOKENS, COL_META, COL_SKIP, COL_VDEPTH,
  ROLE_SHIFT, PRIORITY_SHIFT, FLAGS_SHIFT, ROLE_TOOL, FLAG_TOOL_CALLS, FLAG_UNIT_END, FLAG_SUMMARY,
  DEPTH_MASK, USER_COVERED,
} from "./arena";
import { MAX_RUNS, sortRuns } from "./depth-sort";

// The last selection's figures, read by JS (24 bytes, 8-aligned):
//   +-------+------------+---------+-----+-------------------+
//   | count | keptTokens | evicted | pad | forcedTokens: f64 |
//   +-------+------------+---------+-----+-------------------+
// Token counts are capped at 2^30, but their sums are not: every sum is taken in 64 bits.
// The forced sum is reported, so it is an f64 added in the same order as the JS engine
// adds its numbers: exact below 2^53, and the same bits as JS beyond.
const result = memory.data(24, 8);
export const R_KEPT_TOKENS: usize = 4;
export const R_EVICTED: usize = 8;
export const R_FORCED_TOKENS: usize = 16;

/** Address of the result block (fixed for the module's life). */
export function selectResult(): usize {
  return result;
}

// ---- The state of one call (module globals: selectInto resets each before it reads it) ----
//
// A selection is one call from JS, never reentrant: its state lives in globals rather than in a
// struct passed to every helper, so that the @inline helpers below read a column or the output
// with one load and no pointer to carry. (turnTop and turnBase are read only while turnUser >= 0;
// jumps is never read.) Five groups:

// 1. Column addresses of the tree being selected from, set at the start of each call.
let cParent: usize = 0;
let cUp1: usize = 0;
let cUp2: usize = 0;
let cUp3: usize = 0;
let cTokens: usize = 0;
let cMeta: usize = 0;
let cSkip: usize = 0;
let cVdepth: usize = 0;

// 2. The head's own turn when a summary hangs inside it (USER_COVERED, see arena.ts): its
// messages, from the head up to its newest user message, are entries as themselves, and
// the columns' chains and summarized depths hold only above it. -1: no such turn.
let turnUser: i32 = -1;
let turnTop: i32 = 0; // tree depth of turnUser
let turnBase: i32 = 0; // summarized depth of turnUser on the head's path

// 3. The output: the ids kept so far, written down from `end` (the end of the caller's buffer, which has room for the
// branch): the i-th kept id lies at end - 4(i + 1), so each run of them lies in path order.
let end: usize = 0;
let count: i32 = 0;

// 4. Where each run of kept ids starts: how many were kept before it (see sortRuns).
const runStarts = memory.data(MAX_RUNS * 4);
let runs: i32 = 0;

// 5. Counters of the walk, reset per call or per level.
/** Nodes the level walks moved over (see `lowFree` in selectInto). */
let passed: i32 = 0;
/**
 * Chain steps of the tight loop that were not to the node made just before. Never read: the
 * increment keeps that step a branch (see the tight loop), which a select would not be.
 */
let jumps: i32 = 0;
/** Summaries kept (none: every kept entry carries itself alone, and `carried` need not read them). */
let keptSummaries: i32 = 0;

@inline function meta(x: i32): u32 {
  return load<u32>(cMeta + (<usize>x << 2));
}
@inline function tokensOf(x: i32): i32 {
  return load<i32>(cTokens + (<usize>x << 2));
}
@inline function treeDepth(x: i32): i32 {
  return <i32>(meta(x) & DEPTH_MASK);
}
/** Depth on the head's summarized path: the horizon and the order of the kept ids. */
@inline function depthOf(x: i32): i32 {
  if (turnUser >= 0) {
    const d = treeDepth(x);
    if (d >= turnTop) return turnBase + d - turnTop; // in the turn (entries above it are shallower)
  }
  return load<i32>(cVdepth + (<usize>x << 2));
}
@inline function priorityOf(m: u32): i32 {
  return <i32>((m >> PRIORITY_SHIFT) & 3);
}
@inline function roleOf(m: u32): u32 {
  return (m >> ROLE_SHIFT) & 3;
}
@inline function flagsOf(m: u32): u32 {
  return m >> FLAGS_SHIFT;
}

/**
 * The next entry of level `level`'s chain after x (level 0: the entry above, a summary hanging on the parent or the
 * parent).
 */
@inline function next(x: i32, level: i32): i32 {
  if (turnUser >= 0 && treeDepth(x) >= turnTop) return nextInTurn(x, level);
  if (level == 0) return entryAbove(x);
  return load<i32>((level == 1 ? cUp1 : level == 2 ? cUp2 : cUp3) + (<usize>x << 2));
}

/** The entry above x on the summarized path: a summary hanging on the parent, or the parent; -1 at the root. */
@inline function entryAbove(x: i32): i32 {
  const a = <usize>load<u32>(cParent + (<usize>x << 2));
  if (a == 0) return -1;
  const p = <i32>((a - cParent) >> 2);
  const s = load<i32>(cSkip + (<usize>p << 2));
  return s >= 0 ? s : p;
}

/**
 * next() inside a covered turn: the parents, one by one, up to the turn's user message, then
 * the entry above it and that level's chain. O(the turn's messages passed).
 */
function nextInTurn(x: i32, level: i32): i32 {
  let passed = 0;
  while (x != turnUser) {
    // in the turn, below its user message: a parent
    x = <i32>((<usize>load<u32>(cParent + (<usize>x << 2)) - cParent) >> 2);
    if (level == 0 || priorityOf(meta(x)) >= level) {
      countVisited(passed);
      return x;
    }
    passed++;
  }
  countVisited(passed);
  const e = entryAbove(x);
  if (e < 0 || level == 0 || priorityOf(meta(e)) >= level) return e;
  return load<i32>((level == 1 ? cUp1 : level == 2 ? cUp2 : cUp3) + (<usize>e << 2));
}

/** The first node of level `level`'s chain at or above x. */
@inline function entry(x: i32, level: i32): i32 {
  return priorityOf(meta(x)) >= level ? x : next(x, level);
}

// Unit tracking while a chain is walked newest first: a run of tool results ends at the
// assistant message that made the calls. The first member met tells whether the unit is
// complete (its newest result carries FLAG_UNIT_END).
/** The bits of a priority and of the flags that take a message out of the tight loop (see selectInto). */
const PLAIN_MASK: u32 = (3 << PRIORITY_SHIFT) | ((FLAG_TOOL_CALLS | FLAG_SUMMARY) << FLAGS_SHIFT);
const ROLE_MASK: u32 = 3 << ROLE_SHIFT;
const ROLE_TOOL_BITS: u32 = ROLE_TOOL << ROLE_SHIFT;

/** The lanes' offsets: ids x - 3 .. x from x - 3. */
const LANES: v128 = i32x4(0, 1, 2, 3);

/**
 * The tokens of messages x - 3 .. x (x >= 3) when each is a plain message of the chain's level
 * (its meta masked by PLAIN_MASK is `want`, no tool result), none is `user`, each but the
 * oldest has the one before it as the chain's next (`chain`: the level's column), and they fit
 * `left`; else -1.
 */
@inline function blockOf(
  metaCol: usize, tokensCol: usize, chain: usize, x: i32, want: u32, user: i32, left: i64,
): i64 {
  if (<u32>(user - (x - 3)) < 4) return -1;
  const base = <usize>(x - 3) << 2;
  const m = v128.load(metaCol + base);
  const level = i32x4.eq(v128.and(m, i32x4.splat(PLAIN_MASK)), i32x4.splat(want));
  const notTool = i32x4.ne(v128.and(m, i32x4.splat(ROLE_MASK)), i32x4.splat(ROLE_TOOL_BITS));
  // The chain at x - 3 .. x against x - 4 .. x - 1: the oldest's next is not asked (lane 0 passes).
  const ids = i32x4.add(i32x4.splat(x - 4), LANES);
  const steps = v128.or(i32x4.eq(v128.load(chain + base), ids), i32x4(-1, 0, 0, 0));
  if (!i32x4.all_true(v128.and(v128.and(level, notTool), steps))) return -1;
  const t = v128.load(tokensCol + base);
  const sum =
    <i64>i32x4.extract_lane(t, 0) + <i64>i32x4.extract_lane(t, 1) +
    <i64>i32x4.extract_lane(t, 2) + <i64>i32x4.extract_lane(t, 3);
  return sum > left ? -1 : sum;
}

const OUTSIDE: i32 = 0;
const COMPLETE: i32 = 1;
const INCOMPLETE: i32 = 2;

@inline function enterUnit(state: i32, m: u32): i32 {
  if (state != OUTSIDE) return state;
  if (roleOf(m) == ROLE_TOOL) return flagsOf(m) & FLAG_UNIT_END ? COMPLETE : INCOMPLETE;
  if (flagsOf(m) & FLAG_TOOL_CALLS) return INCOMPLETE; // calls with no answer on this branch
  return OUTSIDE;
}

/** Outside a unit after x: x was a single message or the unit's assistant message. */
@inline function leaveUnit(state: i32, m: u32): i32 {
  return roleOf(m) == ROLE_TOOL ? state : OUTSIDE;
}

@inline function startRun(): void {
  store<i32>(runStarts + (<usize>runs << 2), count);
  runs++;
}

@inline function keep(x: i32): void {
  count++;
  store<i32>(end - (<usize>count << 2), x);
}

/**
 * Tokens of the unit whose newest member is x, walking its members down to the assistant
 * message; -1 when that message lies beyond `minDepth` (a unit is sent whole or not at all).
 */
function unitTokens(x: i32, level: i32, minDepth: i32): i64 {
  let sum: i64 = 0;
  let seen = 0;
  while (true) {
    const m = meta(x);
    sum += <i64>tokensOf(x);
    seen++;
    if (roleOf(m) != ROLE_TOOL) {
      countVisited(seen);
      return depthOf(x) < minDepth ? -1 : sum;
    }
    x = next(x, level);
    if (x < 0) {
      countVisited(seen); // no assistant message above: a broken unit is never sent
      return -1;
    }
  }
}

/** Keeps the unit whose newest member is x; returns the node after its assistant message. */
function keepUnit(x: i32, level: i32): i32 {
  while (true) {
    keep(x);
    passed++;
    const m = meta(x);
    x = next(x, level);
    if (roleOf(m) != ROLE_TOOL) return x;
  }
}

/**
 * Selects the messages of the branch ending at `head` that fit `budget` tokens (see the
 * rules above), writing their ids in branch order (oldest first) to the end of the `room` ids
 * at `outPtr` (room for the branch): the n kept end at outPtr + 4 room. Returns n, or -1 when
 * the forced messages alone exceed the budget (their tokens are in the result block). O(W).
 */
export function selectInto(tree: i32, head: i32, budget: i32, maxMessages: i32, outPtr: usize, room: i32): i32 {
  const h = header(tree);
  cParent = treeColumn(h, COL_PARENT);
  cUp1 = treeColumn(h, COL_UP1);
  cUp2 = treeColumn(h, COL_UP2);
  cUp3 = treeColumn(h, COL_UP3);
  cTokens = treeColumn(h, COL_TOKENS);
  cMeta = treeColumn(h, COL_META);
  cSkip = treeColumn(h, COL_SKIP);
  cVdepth = treeColumn(h, COL_VDEPTH);
  end = outPtr + (<usize>room << 2);
  count = 0;

  // The selection runs on the head's summarized path (walk.ts): from the summary hanging on
  // the head when its branch has no user message, with the turn as originals when a summary
  // hangs inside it. A summary node as the head: it and the path above its run, no turn forced.
  turnUser = -1;
  let user = -1;
  if (!(flagsOf(meta(head)) & FLAG_SUMMARY)) {
    user = load<i32>(treeColumn(h, COL_USER) + (<usize>head << 2));
    if (user < 0) {
      const s = load<i32>(cSkip + (<usize>head << 2));
      if (s >= 0) head = s;
    } else if (user & USER_COVERED) {
      user &= ~USER_COVERED;
      turnTop = treeDepth(user);
      turnBase = load<i32>(cVdepth + (<usize>user << 2));
      turnUser = user;
    }
  }
  const headDepth = depthOf(head);
  const candidates = maxMessages > 0 && maxMessages <= headDepth ? maxMessages : headDepth + 1;
  const minDepth = headDepth + 1 - candidates;
  let visited = 0;

  // Forced: every complete CRITICAL unit or message of the branch, then the newest user turn.
  let forced: f64 = 0;
  let state = OUTSIDE;
  runs = 0;
  startRun();
  keptSummaries = 0;
  for (let x = entry(head, 3); x >= 0; x = next(x, 3)) {
    const m = meta(x);
    visited++;
    state = enterUnit(state, m);
    if (state != INCOMPLETE) {
      forced += <f64>tokensOf(x);
      keep(x);
      if (flagsOf(m) & FLAG_SUMMARY) keptSummaries++;
    }
    state = leaveUnit(state, m);
  }
  if (user >= 0) {
    visited++;
    startRun();
    if (priorityOf(meta(user)) < 3) {
      forced += <f64>tokensOf(user);
      keep(user);
    }
  }
  store<f64>(result + R_FORCED_TOKENS, forced);
  if (forced > <f64>budget) {
    countVisited(visited);
    return -1;
  }

  // HIGH, NORMAL, LOW: newest first while they fit.
  let left: i64 = <i64>budget - <i64>forced; // forced <= budget < 2^31: exact
  // Per level, the summarized depth of the unit that stopped it (its newest member): older
  // ones of that level were dropped. -1: the level did not stop.
  let stopHigh = -1;
  let stopNormal = -1;
  // Whether the LOW level would keep nothing: its chain is every entry, and it walks from the
  // head down to where the NORMAL level stopped (the end of the window, a unit that did not
  // fit, or a dropped HIGH one). When the NORMAL walk started at the head and moved over one
  // entry per depth down to there, no LOW entry lies in between, and the LOW walk is skipped.
  let lowFree = false;
  for (let level = 2; level >= 0; level--) {
    if (level == 0 && lowFree) break;
    let stop = -1;
    state = OUTSIDE;
    let x = entry(head, level);
    const start = x;
    let cut = false;
    passed = 0;
    startRun();
    // The usual entries of a chain, in a tight loop: single messages of this level (no tool
    // call nor result, no summary, not the forced user turn) while they fit, outside a covered
    // turn and with no horizon. The first other entry goes through the general rules below.
    //
    // Why it gives exactly the general loop's result. It runs only where the general loop's
    // steps reduce to its own, which needs, at every entry x it takes:
    //   - state == OUTSIDE on entry, and x is no tool result and carries no tool calls: then
    //     enterUnit leaves the state OUTSIDE, leaveUnit keeps it, and x is a unit of one whose
    //     cost is tokensOf(x) (no unitTokens walk);
    //   - minDepth <= 0 (no maxMessages horizon): `depthOf(x) < minDepth` never holds, so the
    //     horizon check the general loop makes first is skipped with no effect;
    //   - priorityOf(x) == level and x != user: neither the "not this level's" branch (a more
    //     important message, the forced user turn) nor its stop rule applies;
    //   - x is no summary: keptSummaries (which makes `evicted` read `carried`) stays as it is;
    //   - turnUser < 0 and level > 0: next(x, level) is the chain's column, cUp1 or cUp2, read
    //     directly (inside a covered turn, or on level 0, next() walks parents or skips to a
    //     summary: the general loop's);
    //   - cost <= left: a message that does not fit leaves the loop untaken, and the general
    //     loop meets it at once and stops the level there (stop = x), as it would have.
    // Then each step keeps x, takes its cost from `left`, adds one to `passed` and `visited`,
    // and moves to next(x, level): the general loop's steps for x. Nothing else it changes is
    // read. Folding it into the general loop costs 1.45-1.9x on a long plain chat (100,000
    // messages, WASM, selectView: 0.27 -> 0.42 us at a 2,000-token budget, 12 -> 23 us at
    // 128k, 367 -> 533 us keeping all). Four messages at a time where they qualify together
    // (blockOf, SIMD): 1.03-1.05 -> 0.83 us for 707 of 10,000 plain messages, 13.5 -> 10.1 us for all.
    // The JS engine (src/engine/js/select.ts) has no such loop: test/engine/select.test.ts
    // compares the two engines, and both with a brute-force reference, on random trees and on
    // plain chats that take this loop ("select: the WASM tight loop over plain messages against the general loop").
    const chain = turnUser < 0 && minDepth <= 0 && level > 0 ? (level == 1 ? cUp1 : cUp2) : 0;
    while (x >= 0) {
      if (chain != 0 && state == OUTSIDE) {
        // The columns and the output in locals (no global read a message), and one test for
        // the priority and the flags (this level's, no tool calls, no summary), one for the role.
        const metaCol = cMeta;
        const tokensCol = cTokens;
        const want: u32 = <u32>level << PRIORITY_SHIFT;
        const top = end - (<usize>count << 2); // past the next free place: the output grows down
        let w = top;
        let scalar = 0; // messages to take one by one before four are tried again
        while (x >= 0) {
          if (scalar == 0 && x >= 3) {
            // Four at once (x - 3 .. x): each this level's plain message, none the forced user turn,
            // each the chain's step from the one above, and their tokens fit. Then they are what the
            // steps below would keep one by one, in the same order; else those steps decide.
            const block = blockOf(metaCol, tokensCol, chain, x, want, user, left);
            if (block >= 0) {
              left -= block;
              w -= 16;
              v128.store(w, i32x4.add(i32x4.splat(x - 3), LANES));
              x = load<i32>(chain + (<usize>(x - 3) << 2));
              continue;
            }
            scalar = 4;
          }
          if (scalar > 0) scalar--;
          const at = <usize>x << 2;
          const m = load<u32>(metaCol + at);
          if ((m & PLAIN_MASK) != want || (m & ROLE_MASK) == ROLE_TOOL_BITS || x == user) break;
          const cost = <i64>load<i32>(tokensCol + at);
          if (cost > left) break;
          left -= cost;
          w -= 4;
          store<i32>(w, x);
          // The next entry is most often the node made just before (a chat's messages come in
          // order): taken as that, and checked by the load, which then waits on no other (see
          // walkInto). A branch, not a select: a select would wait on the load again.
          const up = load<i32>(chain + at);
          if (up != x - 1) {
            x = up;
            jumps++;
          } else x--;
        }
        const moved = <i32>((top - w) >> 2);
        count += moved;
        passed += moved;
        visited += moved;
        if (x < 0) break;
      }
      const m = meta(x);
      if (depthOf(x) < minDepth) break;
      visited++;
      state = enterUnit(state, m);
      const q = priorityOf(m);
      if (state == INCOMPLETE || q > level || x == user) {
        // Not this level's to decide: a more important message (kept, or the end of this
        // level), the forced user turn, or a unit that can never be sent.
        const stopAt = q == 2 ? stopHigh : stopNormal;
        if (state != INCOMPLETE && q > level && q < 3 && x != user && depthOf(x) <= stopAt) break;
        state = leaveUnit(state, m);
        x = next(x, level);
        passed++;
        continue;
      }
      const cost: i64 = state == COMPLETE ? unitTokens(x, level, minDepth) : <i64>tokensOf(x);
      if (cost < 0) {
        cut = true; // a unit cut by the horizon: it and everything older are outside
        break;
      }
      if (cost > left) {
        stop = x;
        break;
      }
      left -= cost;
      if (state == COMPLETE) x = keepUnit(x, level);
      else {
        if (flagsOf(m) & FLAG_SUMMARY) keptSummaries++;
        keep(x);
        x = next(x, level);
        passed++;
      }
      state = OUTSIDE;
    }
    if (level == 1 && !cut && start == head) lowFree = passed == depthOf(head) - (x < 0 ? -1 : depthOf(x));
    if (level == 2) stopHigh = stop < 0 ? -1 : depthOf(stop);
    else if (level == 1) stopNormal = stop < 0 ? -1 : depthOf(stop);
  }
  countVisited(visited);

  // path order, a summary where its run was
  sortRuns(end, count, runStarts, runs, cVdepth, cMeta, turnUser >= 0 ? turnTop : -1, turnBase);
  store<i32>(result + R_KEPT_TOKENS, budget - <i32>left);
  // (originals carry themselves)
  store<i32>(result + R_EVICTED, branchLength(head) - (keptSummaries > 0 ? carried() : count));
  store<i32>(result, count);
  return count;
}

/** Messages of the branch ending at entry e (originals root -> e; a summary: root -> its last). */
@inline function branchLength(e: i32): i32 {
  return treeDepth(flagsOf(meta(e)) & FLAG_SUMMARY ? load<i32>(cSkip + (<usize>e << 2)) : e) + 1;
}

/** Messages of the branch the kept entries carry: each original, and the run of each summary. O(kept). */
function carried(): i32 {
  let n = 0;
  for (let i = 0; i < count; i++) {
    const x = load<i32>(end - (<usize>(i + 1) << 2));
    const m = meta(x);
    n += flagsOf(m) & FLAG_SUMMARY ? treeDepth(load<i32>(cSkip + (<usize>x << 2))) - <i32>(m & DEPTH_MASK) + 1 : 1;
  }
  return n;
}
