// The split pattern of encoding e (the header's word 13 + e): each text is scanned by it, and
// every piece counted (passes.ts).

import { P_CL100K, P_DEEPSEEK, P_LLAMA3, P_O200K, P_QWEN, P_TEKKEN, header } from "./layout";
import { countCl100k, countO200k } from "./split";
import { countDeepSeek, countPieces } from "./split-open";

/** Tokens of the n bytes at `at` in encoding e (its ranks selected). */
export function scan(e: u32, at: usize, n: u32): u32 {
  const pattern = header(13 + e);
  if (pattern == P_O200K) return countO200k(at, n);
  if (pattern == P_CL100K) return countCl100k(at, n);
  if (pattern == P_LLAMA3) return countCl100k(at, n, true, 3);
  if (pattern == P_QWEN) return countCl100k(at, n, true, 1);
  if (pattern == P_TEKKEN) return countO200k(at, n, false, 1);
  if (pattern == P_DEEPSEEK) return countDeepSeek(at, n);
  return countPieces(at, n);
}
