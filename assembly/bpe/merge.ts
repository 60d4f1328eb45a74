// Byte-pair merges of one piece, counting the tokens it becomes. Same result as tiktoken's
// merge loop (repeatedly merge the adjacent pair of lowest rank, the leftmost on a tie):
// short pieces run that loop as is; longer ones go to bucket.ts, about linear in the piece
// (a run of 10 MiB of letters is one piece).
//
// Work area (at `work`, set by index.ts):
//   short loop: starts u32[SHORT + 1] | ranks u32[SHORT + 1]
//   then the long merge's per-rank area (bucket.ts), then the record of a measured text
//   (record.ts) and the token ends of one of its pieces, then the long merge's node records:
//   a merge never overwrites what `keep` says is kept.

import { bucketMerge, bucketSteps, nodeBytes, rankAreaBytes, resetBucketSteps, setRankArea } from "./bucket";
import { CHUNK, closedAfter } from "./chunks";
import { header, reach } from "./layout";
import { NONE, rankOf } from "./ranks";

export const SHORT: u32 = 64;
let work: usize = 0;
let workLimit: usize = 0;
/** Merge work done since the last reset: pair scans of the short loop, list steps of the long one. */
export let steps: u32 = 0;
export function resetSteps(): void {
  steps = 0;
}
/**
 * Set when the scan must stop: a merge could not get memory (the count is invalid), or a pass stopped it (passes.ts).
 */
export let failed: bool = false;
export function setFailed(value: bool): void {
  failed = value;
}

/** False until the long merges' per-rank lists are laid out in this work area. */
let rankAreaReady = false;
/** Memory up to here holds what must outlive a merge (a record, token ends): node records go past it. */
let kept: usize = 0;

export function setWork(at: usize, end: usize): void {
  if (at != work) rankAreaReady = false;
  work = at;
  workLimit = end;
  failed = false;
  kept = 0;
}

/** End of the work area the merges have reached. */
export function workEnd(): usize {
  return workLimit;
}

/** Makes the work area reach `to`; false (and `failed`) when memory cannot grow. */
export function room(to: usize): bool {
  if (to <= workLimit) return true;
  if (!reach(to)) {
    failed = true;
    return false;
  }
  workLimit = to;
  return true;
}

/** Keeps memory up to `end` from the long merges' node records (0: nothing kept). */
export function keep(end: usize): void {
  kept = end;
}

/** The end of what is kept. */
export function keptEnd(): usize {
  return kept;
}

/** Where the long merges' memory starts: after the short loop's arrays. */
@inline function longArea(): usize {
  return work + ((((<usize>SHORT + 1) << 3) + 15) & ~15);
}

/** Where a record of a measured text may start (after the per-rank area). */
export function recordArea(): usize {
  return longArea() + rankAreaBytes(max(header(2), header(6)));
}

/** Tokens the n bytes at p become (n >= 1). */
export function pieceTokens(p: usize, n: u32): u32 {
  return mergeEnds(p, n, 0);
}

/** Tokens the n bytes at p become; with `ends` != 0, writes there where each ends (u32 offsets from p). */
export function mergeEnds(p: usize, n: u32, ends: usize): u32 {
  if (n == 1 || rankOf(p, n) != NONE) {
    if (ends != 0) store<u32>(ends, n);
    return 1;
  }
  if (n <= SHORT) return shortMerge(p, n, ends);
  return longMerge(p, n, ends);
}

function shortMerge(p: usize, n: u32, ends: usize): u32 {
  const s = work;
  const r = work + ((<usize>SHORT + 1) << 2);
  let m = n + 1;
  for (let i: u32 = 0; i <= n; i++) {
    store<u32>(s + (<usize>i << 2), i);
    store<u32>(r + (<usize>i << 2), i + 1 < n ? rankOf(p + i, 2) : NONE);
  }
  while (m > 1) {
    let min = NONE;
    let at: i32 = -1;
    steps += m;
    for (let i: u32 = 0; i + 1 < m; i++) {
      const v = load<u32>(r + (<usize>i << 2));
      if (v < min) {
        min = v;
        at = <i32>i;
      }
    }
    if (at < 0) break;
    const a = <u32>at;
    // Both arrays close the gap (loops: a few words, where memory.copy is a call out of the module).
    for (let k = a + 1; k + 1 < m; k++) store<u32>(s + (<usize>k << 2), load<u32>(s + (<usize>(k + 1) << 2)));
    for (let k = a; k + 1 < m; k++) store<u32>(r + (<usize>k << 2), load<u32>(r + (<usize>(k + 1) << 2)));
    m--;
    const sa = load<u32>(s + (<usize>a << 2));
    store<u32>(r + (<usize>a << 2), a + 2 < m ? rankOf(p + sa, load<u32>(s + (<usize>(a + 2) << 2)) - sa) : NONE);
    if (a > 0) {
      const sb = load<u32>(s + (<usize>(a - 1) << 2));
      const right = a + 1 < m ? rankOf(p + sb, load<u32>(s + (<usize>(a + 1) << 2)) - sb) : NONE;
      store<u32>(r + (<usize>(a - 1) << 2), right);
    }
  }
  if (ends != 0) {
    for (let i: u32 = 1; i < m; i++) store<u32>(ends + (<usize>(i - 1) << 2), load<u32>(s + (<usize>i << 2)));
  }
  return m - 1;
}

/**
 * The long merge of a piece (bucket.ts), its memory made ready first; a piece of several
 * chunks is merged chunk by chunk, cut where no merge can cross (chunks.ts).
 */
function longMerge(p: usize, n: u32, ends: usize): u32 {
  let start: u32 = 0;
  let tokens: u32 = 0;
  for (let from = CHUNK; n - start >= CHUNK << 1; ) {
    const b = closedAfter(p, n, from);
    if (b == 0) {
      if (n - from < CHUNK << 1) break;
      from += CHUNK;
      continue;
    }
    const t = chunkMerge(p + start, b - start, ends == 0 ? 0 : ends + (<usize>tokens << 2));
    if (failed) return 0;
    if (ends != 0) shiftEnds(ends + (<usize>tokens << 2), t, start);
    tokens += t;
    start = b;
    from = b + CHUNK;
  }
  const t = chunkMerge(p + start, n - start, ends == 0 ? 0 : ends + (<usize>tokens << 2));
  if (ends != 0 && start != 0) shiftEnds(ends + (<usize>tokens << 2), t, start);
  return tokens + t;
}

/** Adds `by` to the `count` token ends at `at` (a chunk's, made offsets from the piece's start). */
function shiftEnds(at: usize, count: u32, by: u32): void {
  for (let i: u32 = 0; i < count; i++) store<u32>(at + (<usize>i << 2), load<u32>(at + (<usize>i << 2)) + by);
}

/** The bucket merge of n bytes at p (n > SHORT), its memory made ready first. */
function chunkMerge(p: usize, n: u32, ends: usize): u32 {
  const ranks = max(header(2), header(6));
  const area = longArea();
  const nodes = max(area + rankAreaBytes(ranks), (kept + 15) & ~15);
  if (!room(nodes + nodeBytes(n))) return 0;
  if (!rankAreaReady) {
    setRankArea(area, ranks);
    rankAreaReady = true;
  }
  resetBucketSteps();
  const tokens = bucketMerge(p, n, nodes, ends);
  steps += bucketSteps;
  return tokens;
}
