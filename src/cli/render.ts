// Text drawings of the command: budget bars, a progress bar, clipped lines.

/** A bar of `width` cells for `used` of `limit`, e.g. "███████░░░". */
export function bar(used: number, limit: number, width = 24): string {
  const full = limit > 0 ? Math.min(width, Math.round((used / limit) * width)) : 0;
  return "█".repeat(full) + "░".repeat(width - full);
}

/** One line per budget slice: name, bar, used / limit and percent. */
export function budgetLines(rows: [string, number, number][]): string[] {
  const wide = Math.max(...rows.map(([, , l]) => String(l).length));
  return rows.map(([name, used, limit]) => {
    const pct = limit > 0 ? Math.round((used / limit) * 100) : 0;
    return (
      `${name.padEnd(13)}${bar(used, limit)} ${String(used).padStart(wide)} / ${String(limit).padStart(wide)}  ` +
      `${String(pct).padStart(3)}%`
    );
  });
}

/** A progress line for stderr, redrawn in place with a carriage return. */
export function progressLine(done: number, total: number | undefined, label: string): string {
  if (!total) return `\r${label}`;
  const pct = Math.min(100, Math.floor((done / total) * 100));
  return `\r${bar(done, total, 30)} ${String(pct).padStart(3)}%  ${label}`;
}

/** `text` on one line, clipped to `width` characters. */
export function clip(text: string, width: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > width ? line.slice(0, width - 1) + "…" : line;
}

/** "1 branch", "2 branches". */
export const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

export const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
