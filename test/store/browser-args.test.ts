// Issue 35, item 2: ctxloom/browser where there is no browser, and its bad options (the store
// itself runs in headless Chromium: test/runtime/browser-store.test.ts).
import { expect, it } from "vitest";
import { indexedDBStore } from "../../src/browser.js";

it("indexedDBStore refuses bad options, and says on Node that it needs a browser's IndexedDB", () => {
  const code = (f: () => unknown) => {
    try {
      f();
      return "none";
    } catch (e) {
      return (e as { code?: string }).code;
    }
  };
  expect(code(() => indexedDBStore({ name: "" }))).toBe("INVALID_ARGUMENT");
  expect(code(() => indexedDBStore({ nmae: "x" } as never))).toBe("INVALID_ARGUMENT");
  expect(code(() => indexedDBStore())).toBe("UNSUPPORTED_RUNTIME");
  expect(() => indexedDBStore()).toThrow(/ctxloom\/sqlite.*ctxloom\/cloudflare/);
});
