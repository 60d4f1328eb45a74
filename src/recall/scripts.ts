// Words of scripts written without spaces (Chinese, Japanese, Thai, Lao, Khmer, Myanmar): a
// run of their characters is no word, so it is cut into overlapping character bigrams ("東京
// 大学" -> "東京", "京大", "大学"), which match a query's words as well as any dictionary cut
// would match its own on conversational text, with no dictionary to ship. A run of one
// character is its own term. Other scripts keep their words whole.

/** Whether code point `c` belongs to a script written without spaces. */
export function isSpaceless(c: number): boolean {
  return (
    (c >= 0x0e00 && c <= 0x0eff) || // Thai, Lao
    (c >= 0x1000 && c <= 0x109f) || // Myanmar
    (c >= 0x1780 && c <= 0x17ff) || // Khmer
    (c >= 0x3040 && c <= 0x30ff) || // Hiragana, Katakana
    (c >= 0x3400 && c <= 0x4dbf) || // CJK extension A
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility ideographs
    (c >= 0xff66 && c <= 0xff9f) || // halfwidth Katakana
    (c >= 0x20000 && c <= 0x3134f) // CJK extensions B-G
  );
}

/** Whether a word (a run of letters, marks and digits) holds a character of such a script. */
export function hasSpaceless(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c >= 0x0e00 && isSpaceless(word.codePointAt(i)!)) return true;
  }
  return false;
}

/**
 * Cuts a word holding spaceless characters into its parts: each run of spaceless characters
 * as its bigrams of code points (a lone character as itself), each
 * other run as a word. Calls `emit` for each, in order.
 */
export function cutSpaceless(word: string, emit: (part: string, spaceless: boolean) => void): void {
  const chars = Array.from(word);
  let i = 0;
  while (i < chars.length) {
    const spaceless = isSpaceless(chars[i]!.codePointAt(0)!);
    let end = i + 1;
    while (end < chars.length && isSpaceless(chars[end]!.codePointAt(0)!) === spaceless) end++;
    if (!spaceless) emit(chars.slice(i, end).join(""), false);
    else if (end - i === 1) emit(chars[i]!, true);
    else for (let j = i; j + 1 < end; j++) emit(chars[j]! + chars[j + 1]!, true);
    i = end;
  }
}
