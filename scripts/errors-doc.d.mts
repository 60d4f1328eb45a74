// Types of scripts/errors-doc.mjs, for test/docs/errors-doc.test.ts.
/** docs/errors.md's path. */
export const PAGE: string;
/** The codes of the `ErrorCode` union of src/errors.ts's text, in its order. */
export function errorCodes(source: string): string[];
/** Each code's meaning, from the "- CODE: meaning" entries above the union. */
export function meanings(source: string): Map<string, string>;
/** docs/errors.md as the script writes it from src/errors.ts's text. */
export function render(source?: string): string;
