// docs/errors.md is written from src/errors.ts (scripts/errors-doc.mjs): every code of ErrorCode
// with the meaning the list above it gives. The page must be what the script writes now, so that
// a code added, renamed or explained anew in errors.ts and not in the page fails here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { errorCodes, meanings, PAGE, render } from "../../scripts/errors-doc.mjs";
import { root } from "./blocks.js";

const source = readFileSync(join(root, "src/errors.ts"), "utf8");

describe("docs/errors.md", () => {
  test("is what scripts/errors-doc.mjs writes from src/errors.ts (run it after changing a code)", () => {
    expect(readFileSync(PAGE, "utf8")).toBe(render(source));
  });

  test("has a row for every code, with its meaning", () => {
    const page = readFileSync(PAGE, "utf8");
    const codes = errorCodes(source);
    expect(codes.length).toBeGreaterThanOrEqual(34);
    for (const code of codes)
      expect(page).toContain(`| \`${code}\` | ${meanings(source).get(code)!.replace(/\|/g, "\\|")} |`);
  });

  test("a code without an entry, or an entry for no code, is refused", () => {
    const withoutEntry = source.replace(/ \* - CHAT_EXISTS: .*\n/, "");
    expect(() => render(withoutEntry)).toThrow(/no "- CODE: meaning" entry for CHAT_EXISTS/);
    const extra = source.replace(" * - CHAT_EXISTS:", " * - CHAT_GONE: a code nobody throws.\n * - CHAT_EXISTS:");
    expect(() => render(extra)).toThrow(/CHAT_GONE described but not in ErrorCode/);
  });

  test("an entry's continuation lines belong to it", () => {
    expect(meanings(source).get("STORE_OUTCOME_UNKNOWN")).toMatch(
      /^the connection to the store was lost .* never appended twice\.$/,
    );
  });
});
