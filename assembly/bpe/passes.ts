// How a scan treats its pieces in measure.ts's passes. The scanners hand every piece to
// countPiece (below), which counts it (through pieces.ts's cache of merged pieces) unless a pass
// is on: then measuredPiece sees it, and
//   CAPPED  stops the scan once the total passes a cap; a piece that cannot fit (bounds.ts:
//           its bytes over the longest token's of their kind) is not even merged,
//   RECORD  writes the piece into the record (record.ts), stopping past a cap too,
//   KNOWN   takes the count of a piece from the record when it lies between recorded token
//           boundaries (a slice of the measured text), and counts it otherwise.

import { leastTokens } from "./bounds";
import { SHORT, failed, mergeEnds, setFailed } from "./merge";
import { cachedTokens } from "./pieces";
import { NONE, rankOf } from "./ranks";
import { commit, commitEnds, endsSlot, knownTokens } from "./record";

export const PLAIN: u32 = 0;
export const CAPPED: u32 = 1;
export const RECORD: u32 = 2;
export const KNOWN: u32 = 3;

let mode: u32 = PLAIN;
/** True while a pass is on: countPiece hands every piece to measuredPiece. */
export let measuring: bool = false;
/** The text's first byte: the record holds offsets from it. */
let base: usize = 0;
let cap: u32 = 0;
let encoding: u32 = 0;
/** Tokens of the pieces seen since setMode. */
export let total: u32 = 0;
/** Set (with merge.ts's `failed`, which stops the scanners) when a pass went past its cap: `total` is then valid. */
export let stopped: bool = false;

// What KNOWN reads from the record: pieces within [0, headLen) of the scanned text are the
// recorded text's at the same offsets; pieces within [tailAt, tailEnd) are its own `shift` bytes on.
let headLen: u32 = 0xffffffff;
let tailAt: u32 = 0xffffffff;
let tailEnd: u32 = 0;
let shift: i64 = 0;

/** Sets how the next scan treats its pieces (of the text at `text`, in encoding e), and clears the total. */
export function setMode(m: u32, text: usize, capTokens: u32, e: u32): void {
  headLen = 0xffffffff;
  tailAt = 0xffffffff;
  tailEnd = 0;
  shift = 0;
  mode = m;
  measuring = m != PLAIN;
  base = text;
  cap = capTokens;
  encoding = e;
  total = 0;
  stopped = false;
  setFailed(false);
}

/**
 * For KNOWN after setMode: the scanned text is the recorded text's first `head` bytes, then
 * others, then from `tail` to `end` the recorded text's bytes `by` bytes on (a slice replaced).
 */
export function setRegions(head: u32, tail: u32, end: u32, by: i64): void {
  headLen = head;
  tailAt = tail;
  tailEnd = end;
  shift = by;
}

/** The recorded offset of the n scanned bytes at offset o, or -1 when they lie in no region read from the record. */
@inline function recordedAt(o: u32, n: u32): i64 {
  if (<u64>o + n <= <u64>headLen) return <i64>o;
  if (o >= tailAt && o + n <= tailEnd) return <i64>o + shift;
  return -1;
}

/**
 * Tokens the piece of n bytes at p becomes: what the scanners ask of every piece (a pass of
 * measure.ts sees each). `bytes`: a piece of one token a byte (SentencePiece's byte fallback).
 */
export function countPiece(p: usize, n: u32, asciiWord: bool, bytes: bool = false): u32 {
  if (measuring) return measuredPiece(p, n, asciiWord, bytes);
  return bytes ? n : cachedTokens(p, n, asciiWord);
}

/** Tokens of the piece of n bytes at p (what countPiece returns while a pass is on). */
export function measuredPiece(p: usize, n: u32, asciiWord: bool, bytes: bool = false): u32 {
  let t: u32;
  if (bytes) {
    t = n;
    if (mode == RECORD && !commit(<u32>(p - base), t)) return 0;
  } else if (mode == CAPPED) {
    // (a short piece cannot pass the cap by itself: counted)
    const least = n > 256 ? leastTokens(encoding, p, n) : 1;
    t = total + least > cap ? least : cachedTokens(p, n, asciiWord);
  } else if (mode == RECORD) {
    if (n > SHORT) {
      // A long piece (never cached): merged once, its token ends kept for the cuts that land in it.
      const ends = endsSlot(n);
      if (ends == 0) return 0;
      t = mergeEnds(p, n, ends);
      if (failed) return 0;
      commitEnds(<u32>(p - base), t);
    } else {
      t = cachedTokens(p, n, asciiWord);
      if (failed || !commit(<u32>(p - base), t)) return 0;
    }
  } else {
    const at = recordedAt(<u32>(p - base), n);
    let known: i32 = at < 0 ? -1 : knownTokens(<u32>at, n);
    if (known > 1 && rankOf(p, n) != NONE) known = 1; // a slice that is one token by itself
    t = known >= 0 ? <u32>known : cachedTokens(p, n, asciiWord);
  }
  total += t;
  if (mode <= RECORD && total > cap) {
    stopped = true;
    setFailed(true); // (the scanners stop on it)
  }
  return t;
}
