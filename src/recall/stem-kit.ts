// What the Snowball stemmers share (stem-*.ts): regions, vowel tests and suffix lookups, on
// lowercase words.

/**
 * Snowball's region after `from`: the index just past the first non-vowel that follows a
 * vowel at or after `from`, or the word's length when there is none (R1 from 0, R2 from R1).
 */
export function regionAfter(w: string, from: number, vowels: string): number {
  for (let i = from + 1; i < w.length; i++) if (vowels.includes(w[i - 1]!) && !vowels.includes(w[i]!)) return i + 1;
  return w.length;
}

/** Whether `w[from, to)` holds a vowel. */
export function isVowelIn(w: string, from: number, to: number, vowels: string): boolean {
  for (let i = from; i < to; i++) if (vowels.includes(w[i]!)) return true;
  return false;
}

/** The first of `suffixes` (list them longest first) that `w` ends with, or null. */
export function endsWithAny(w: string, suffixes: readonly string[]): string | null {
  for (const s of suffixes) if (w.endsWith(s)) return s;
  return null;
}

/**
 * The first of `suffixes` (longest first) that `w` ends with, starting at or after `from` (Snowball's search within a
 * region).
 */
export function endsWithAnyFrom(w: string, suffixes: readonly string[], from: number): string | null {
  for (const s of suffixes) if (w.length - s.length >= from && w.endsWith(s)) return s;
  return null;
}

/** Calls `f` on each of `list` until it returns true. */
export function firstOf(list: readonly string[], f: (s: string) => boolean): void {
  for (const s of list) if (f(s)) return;
}

/** `suffixes` sorted longest first (Snowball tries the longest matching suffix of a list). */
export const longestFirst = (suffixes: readonly string[]): string[] =>
  [...suffixes].sort((a, b) => b.length - a.length);

/**
 * The RV region of the Romance stemmers (Spanish, Portuguese, Italian): if the second letter
 * is a consonant, after the next vowel; if the first two are vowels, after the next consonant;
 * else (consonant-vowel) from the fourth letter. The word's length when there is none.
 */
export function romanceRV(w: string, vowels: string): number {
  if (w.length < 2) return w.length;
  const v = (i: number) => vowels.includes(w[i]!);
  if (!v(1)) {
    for (let i = 2; i < w.length; i++) if (v(i)) return i + 1;
    return w.length;
  }
  if (v(0)) {
    for (let i = 2; i < w.length; i++) if (!v(i)) return i + 1;
    return w.length;
  }
  return Math.min(3, w.length);
}
