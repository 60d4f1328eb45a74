// What a lexical index (lexical.ts) holds: its live terms and the bytes of its blocks.

import { lexicalHeader, RECORD, T_DF, T_LOG2 } from "./lexical";
import { L_TERMS, L_TERMS_LOG2, L_LENS, L_LENS_LOG2 } from "./lexical-layout";
import { placeBytes } from "./lexical-place";

/** Terms with at least one document. O(terms). */
export function lexicalTerms(x: i32): i32 {
  const h = lexicalHeader(x);
  const table = <usize>load<u32>(h + L_TERMS);
  if (table == 0) return 0;
  const end = table + (<usize>1 << load<i32>(h + L_TERMS_LOG2));
  let n = 0;
  for (let r = table; r < end; r += RECORD) if (load<i32>(r + T_LOG2) != 0 && load<i32>(r + T_DF) > 0) n++;
  return n;
}

/** Bytes of the index's blocks (term table, postings, lengths): what it holds in linear memory. O(terms). */
export function lexicalBytes(x: i32): f64 {
  const h = lexicalHeader(x);
  let bytes: f64 = 0;
  const table = <usize>load<u32>(h + L_TERMS);
  if (table != 0) {
    const size = <usize>1 << load<i32>(h + L_TERMS_LOG2);
    bytes += <f64>size;
    for (let r = table; r < table + size; r += RECORD) {
      if (load<i32>(r + T_LOG2) > 0) bytes += <f64>(<usize>1 << load<i32>(r + T_LOG2));
    }
  }
  if (load<u32>(h + L_LENS) != 0) bytes += <f64>(<usize>1 << load<i32>(h + L_LENS_LOG2));
  return bytes + placeBytes(h);
}
