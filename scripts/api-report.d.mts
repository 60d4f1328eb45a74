// Types of scripts/api-report.mjs, for test/package/api.test.ts.
export interface ApiEntry {
  /** The report's name: api/<name>.api.md ("index" for the main entry). */
  name: string;
  /** The subpath in package.json "exports" (".", "./sqlite", ...). */
  subpath: string;
  /** How users import it ("ctxloom", "ctxloom/sqlite", ...). */
  specifier: string;
  /** Its declarations, relative to dist/. */
  types: string;
}
export function entryPoints(manifest?: unknown): ApiEntry[];
export function compileDeclarations(out: string): void;
export function apiReport(options?: { dist?: string; update?: boolean; api?: string }): { ok: boolean; text: string };
/** What a report may not hold (forgotten exports, undocumented declarations and members), each named with its report. */
export function reportFaults(report: string, text: string): string[];
