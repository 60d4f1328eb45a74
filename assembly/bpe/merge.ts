// Byte-pair merges of one piece, counting the tokens it becomes. Same result as tiktoken's
// merge loop (repeatedly merge the adjacent pair of lowest rank, the leftmost on a tie):
// short pieces run that loop as is; longer ones go to bucket.ts, about linear in the piece
// (a run of 10 MiB of letters is one piece).
//
// Work area (at `work`, set by index.ts):
//   short loop: starts u32[SHORT + 1] | ranks u32[SHORT + 1]
//   then the long merge's per-rank area and node records (bucket.ts)

import { bucketMerge, bucketSteps, nodeBytes, rankAreaBytes, resetBucketSteps, setRankArea } from "./bucket";
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
/** Set when a merge could not get memory; the count is then invalid. */
export let failed: bool = false;

/** False until the long merges' per-rank lists are laid out in this work area. */
let rankAreaReady = false;

export function setWork(at: usize, end: usize): void {
  if (at != work) rankAreaReady = false;
  work = at;
  workLimit = end;
  failed = false;
}

/** End of the work area the merges have reached. */
export function workEnd(): usize {
  return workLimit;
}

/** Tokens the n bytes at p become (n >= 1). */
export function pieceTokens(p: usize, n: u32): u32 {
  if (n == 1) return 1;
  if (rankOf(p, n) != NONE) return 1;
  if (n <= SHORT) return shortMerge(p, n);
  return longMerge(p, n);
}

function shortMerge(p: usize, n: u32): u32 {
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
      store<u32>(r + (<usize>(a - 1) << 2), a + 1 < m ? rankOf(p + sb, load<u32>(s + (<usize>(a + 1) << 2)) - sb) : NONE);
    }
  }
  return m - 1;
}

/** Where the long merges' memory starts: after the short loop's arrays. */
@inline function longArea(): usize {
  return work + ((((<usize>SHORT + 1) << 3) + 15) & ~15);
}

/** The long merge of a piece (bucket.ts), its memory made ready first. */
function longMerge(p: usize, n: u32): u32 {
  const ranks = max(header(2), header(6));
  const area = longArea();
  const nodes = area + rankAreaBytes(ranks);
  const need = nodes + nodeBytes(n);
  if (need > workLimit) {
    if (!reach(need)) {
      failed = true;
      return 0;
    }
    workLimit = need;
  }
  if (!rankAreaReady) {
    setRankArea(area, ranks);
    rankAreaReady = true;
  }
  resetBucketSteps();
  const tokens = bucketMerge(p, n, nodes, 0);
  steps += bucketSteps;
  return tokens;
}
