// Dates a query names ("in 2023", "in May 2023", "on 8 May", "May 8th, 2023"), for recall's
// ranking: messages written on such a date gain (where messages carry their times). English
// month names; "may" counts as the month only capitalised or beside a day or a year.
// Relative times ("last week") are left alone: the query does not say when it was asked.

/** A date a query names: any of its fields may be absent (a month in any year). Months 0-11, UTC. */
export interface NamedDate {
  year?: number;
  month?: number;
  day?: number;
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH =
  "(january|february|march|april|may|june|july|august|september|october|november|december|" +
  "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)";
const DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
const YEAR = "((?:19|20)\\d{2})";
const PATTERNS: [RegExp, (m: RegExpExecArray) => NamedDate][] = [
  [
    new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH}\\b,?(?:\\s+${YEAR}\\b)?`, "giu"),
    (m) => ({ day: +m[1]!, month: monthOf(m[2]!), ...yearOf(m[3]) }),
  ],
  [
    new RegExp(`\\b${MONTH}\\s+${DAY}\\b(?:,?\\s+${YEAR}\\b)?`, "giu"),
    (m) => ({ month: monthOf(m[1]!), day: +m[2]!, ...yearOf(m[3]) }),
  ],
  [new RegExp(`\\b${MONTH},?\\s+${YEAR}\\b`, "giu"), (m) => ({ month: monthOf(m[1]!), year: +m[2]! })],
  [new RegExp(`\\b(?:in|of|during|since)\\s+${MONTH}\\b`, "giu"), (m) => ({ month: monthOf(m[1]!) })],
  [new RegExp(`\\b${YEAR}\\b`, "gu"), (m) => ({ year: +m[1]! })],
];

const monthOf = (name: string): number => MONTHS.indexOf(name.toLowerCase().slice(0, 3));
const yearOf = (y: string | undefined): NamedDate => (y === undefined ? {} : { year: +y });

/** The dates a query names, most precise first (a year inside a fuller date is not named again). O(query). */
export function namedDates(query: string): NamedDate[] {
  const found: NamedDate[] = [];
  const taken: [number, number][] = [];
  for (const [re, read] of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(query); m !== null; m = re.exec(query)) {
      const at = m.index;
      const end = at + m[0].length;
      if (taken.some(([a, b]) => at < b && end > a)) continue;
      if (/\bmay\b/.test(m[0]) && !/\d/.test(m[0])) continue; // "may" the verb
      const d = read(m);
      if (d.day !== undefined && !(d.day >= 1 && d.day <= 31)) continue;
      taken.push([at, end]);
      found.push(d);
    }
  }
  return found;
}

/** Whether time `t` (ms since the epoch) falls on one of the dates. */
export function onDate(t: number, dates: readonly NamedDate[]): boolean {
  if (!Number.isFinite(t)) return false;
  const d = new Date(t);
  return dates.some(
    (n) =>
      (n.year === undefined || n.year === d.getUTCFullYear()) &&
      (n.month === undefined || n.month === d.getUTCMonth()) &&
      (n.day === undefined || n.day === d.getUTCDate()),
  );
}
