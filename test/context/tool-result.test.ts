// Tool results cut to a token limit: head and tail kept around a marker that gives what was
// left out, at line or sentence boundaries where possible, never inside a character, and
// within the limit exactly by the counter given (the estimate and o200k).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { cutToolResult, omissionMarker, suffixToTokens } from "../../src/context/tool-result.js";
import {
  DEFAULT_CLEAR,
  DEFAULT_TOOL_RESULTS,
  checkToolResultLevel,
  toolResultPolicy,
} from "../../src/models/tool-results.js";
import { truncateToolResult, type TokenCounter, type TruncateOptions } from "../../src/index.js";
import { heuristicCounter, loadEncoding } from "../../src/tokens-entry.js";
import { wasmBpeCounter } from "../../src/tokens/wasm-bpe.js";
import { expectThrowCode } from "../helpers.js";

const h = heuristicCounter();
const log = Array.from({ length: 400 }, (_, i) => `line ${i}: status ok, elapsed ${i * 7} ms.`).join("\n");
const markerOf = (out: string) =>
  /\n\[\.\.\. ([\d,]+) of ([\d,]+) tokens of this tool result omitted \.\.\.\]\n/.exec(out);

describe("truncateToolResult", () => {
  it("returns a text that fits unchanged", () => {
    expect(truncateToolResult("small result", { maxTokens: 100, counter: h })).toBe("small result");
  });

  it("keeps the head and the tail, cut at lines, around a marker with the omitted and total counts", async () => {
    for (const counter of [h, await loadEncoding("o200k_base")] as TokenCounter[]) {
      const total = counter.count(log);
      const out = truncateToolResult(log, { maxTokens: 300, counter });
      expect(counter.count(out)).toBeLessThanOrEqual(300);
      expect(counter.count(out)).toBeGreaterThan(250); // the room is used, not thrown away
      const m = markerOf(out)!;
      expect(m).not.toBeNull();
      expect(m[2]).toBe(total.toLocaleString("en-US"));
      const [head, tail] = [out.slice(0, m.index), out.slice(m.index + m[0].length)];
      expect(log.startsWith(head)).toBe(true);
      expect(log.endsWith(tail)).toBe(true);
      expect(head.startsWith("line 0:")).toBe(true);
      expect(tail.startsWith("line ")).toBe(true); // the tail starts at a line
      expect(head.endsWith(".")).toBe(true); // the head ends at a sentence
      expect(tail.endsWith("line 399: status ok, elapsed 2793 ms.")).toBe(true);
      const middle = log.slice(head.length, log.length - tail.length);
      expect(m[1]).toBe(counter.count(middle).toLocaleString("en-US"));
    }
  });

  it("keeps only the head or only the tail when asked", () => {
    const head = truncateToolResult(log, { maxTokens: 120, counter: h, keep: "head" });
    expect(head.startsWith("line 0:")).toBe(true);
    expect(head.endsWith(" ...]\n")).toBe(true);
    const tail = truncateToolResult(log, { maxTokens: 120, counter: h, keep: "tail" });
    expect(tail.startsWith("\n[... ")).toBe(true);
    expect(tail.endsWith("2793 ms.")).toBe(true);
    for (const out of [head, tail]) expect(h.count(out)).toBeLessThanOrEqual(120);
  });

  it("never splits a character or an emoji, and fits exactly by o200k whatever the limit (property)", async () => {
    const o200k = await loadEncoding("o200k_base");
    const piece = fc.constantFrom("ok ", "日本語", "😀", "👩‍👩‍👧", "é", "\n", ". ", "café ", "x".repeat(30), "🇫🇷");
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom("head-tail", "head", "tail"),
        (parts, max, keep) => {
          const text = parts.join("");
          const out = cutToolResult(text, max, o200k, keep as "head-tail");
          expect(o200k.count(out)).toBeLessThanOrEqual(max);
          expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out)).toBe(false); // no lone surrogate
          if (o200k.count(text) <= max) expect(out).toBe(text);
          const m = markerOf(out);
          if (m) {
            expect(text.startsWith(out.slice(0, m.index))).toBe(true);
            expect(text.endsWith(out.slice(m.index + m[0].length))).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("with the WebAssembly counter: exact by o200k, markers exact, never inside a character (property)", async () => {
    const o200k = await wasmBpeCounter("o200k_base");
    const piece = fc.constantFrom(
      "ok ",
      "日本語",
      "😀",
      "👩‍👩‍👧",
      "é",
      "\n",
      ". ",
      "café ",
      "x".repeat(300),
      "🇫🇷",
      "line 12: done.\n",
      "中".repeat(80),
    );
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom("head-tail", "head", "tail"),
        (parts, max, keep) => {
          const text = parts.join("");
          const out = cutToolResult(text, max, o200k, keep as "head-tail");
          expect(o200k.count(out)).toBeLessThanOrEqual(max);
          expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out)).toBe(false);
          if (o200k.count(text) <= max) expect(out).toBe(text);
          const m = markerOf(out);
          if (m) {
            const [head, tail] = [out.slice(0, m.index), out.slice(m.index + m[0].length)];
            expect(text.startsWith(head) && text.endsWith(tail)).toBe(true);
            expect(m[1]).toBe(o200k.count(text.slice(head.length, text.length - tail.length)).toLocaleString("en-US"));
            expect(m[2]).toBe(o200k.count(text).toLocaleString("en-US"));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("with the WebAssembly counter, a 2 MB result is read once: no prefix or slice of it is counted again", async () => {
    const o200k = await wasmBpeCounter("o200k_base");
    let chars = 0;
    let measures = 0;
    const spy: TokenCounter = {
      name: "spy",
      exact: true,
      count: (t) => ((chars += t.length), o200k.count(t)),
      ...(o200k.measure ? { measure: (t: string, upTo?: number) => (measures++, o200k.measure!(t, upTo)) } : {}),
    };
    const text = Array.from({ length: 40_000 }, (_, i) => `${i}: GET /api/items/${i} 200 — 日本 ✓ 😀`).join("\n");
    const out = cutToolResult(text, 20_000, spy, "head-tail");
    expect(o200k.count(out)).toBeLessThanOrEqual(20_000);
    expect(o200k.count(out)).toBeGreaterThan(19_900);
    expect(measures).toBe(1);
    expect(chars).toBeLessThan(1_000); // the markers
  });

  it("at tiny limits: a short marker, then as much of one as fits", () => {
    const text = "word ".repeat(10_000);
    for (let max = 1; max <= 40; max++) {
      const out = truncateToolResult(text, { maxTokens: max, counter: h });
      expect(h.count(out)).toBeLessThanOrEqual(max);
      expect(out.length).toBeGreaterThan(0);
    }
    const short = "[12,500 tokens omitted]";
    expect(truncateToolResult(text, { maxTokens: h.count(short), counter: h })).toBe(short);
    expect(truncateToolResult(text, { maxTokens: h.count(short) - 1, counter: h })).toBe("[omitted]");
    expect(truncateToolResult(text, { maxTokens: 1, counter: h })).toBe("[omi");
  });

  it("refuses bad arguments with coded errors, each naming what to pass", () => {
    const bad = (call: () => unknown, code: string, says: RegExp) => {
      expectThrowCode(call, code);
      expect(call).toThrow(says);
    };
    bad(
      () => truncateToolResult(5 as unknown as string, { maxTokens: 10, counter: h }),
      "INVALID_CONTENT",
      /text must be a string/,
    );
    bad(
      () => truncateToolResult("x", { maxTokens: 0, counter: h }),
      "INVALID_ARGUMENT",
      /maxTokens must be an integer from 1/,
    );
    bad(
      () => truncateToolResult("x", { maxTokens: 1.5, counter: h }),
      "INVALID_ARGUMENT",
      /maxTokens must be an integer/,
    );
    bad(
      () => truncateToolResult("x", { counter: h } as TruncateOptions),
      "INVALID_ARGUMENT",
      /maxTokens must be an integer.*got undefined/,
    );
    bad(
      () => truncateToolResult("x", { maxTokens: 10, counter: {} as TokenCounter }),
      "INVALID_ARGUMENT",
      /counter must be a TokenCounter/,
    );
    bad(
      () => truncateToolResult("x", { maxTokens: 10 } as TruncateOptions),
      "INVALID_ARGUMENT",
      /counter must be a TokenCounter/,
    );
    bad(
      () => truncateToolResult("x", { maxTokens: 10, counter: h, keep: "middle" as "head" }),
      "INVALID_ARGUMENT",
      /keep must be "head-tail"/,
    );
    // Unknown keys are refused, naming the nearest known one; the old positional form too.
    bad(
      () => truncateToolResult("x", { maxTokens: 10, counter: h, kep: "head" } as TruncateOptions),
      "INVALID_ARGUMENT",
      /no option "kep"; did you mean "keep"/,
    );
    bad(
      () => truncateToolResult("x", { maxToken: 10, counter: h } as unknown as TruncateOptions),
      "INVALID_ARGUMENT",
      /no option "maxToken"; did you mean "maxTokens"/,
    );
    const positional = truncateToolResult as unknown as (text: string, max: number, counter: TokenCounter) => string;
    bad(() => positional("x", 10, h), "INVALID_ARGUMENT", /must be an object of options/);
    bad(
      () => (truncateToolResult as unknown as (text: string) => string)("x"),
      "INVALID_ARGUMENT",
      /needs its options: \{ maxTokens, counter, keep\? \}/,
    );
    bad(
      () => truncateToolResult("x", null as unknown as TruncateOptions),
      "INVALID_ARGUMENT",
      /must be an object of options/,
    );
  });
});

describe("suffixToTokens", () => {
  it("is the longest fitting suffix, moved to a line start when one is near", () => {
    const out = suffixToTokens(log, 50, h);
    expect(log.endsWith(out)).toBe(true);
    expect(h.count(out)).toBeLessThanOrEqual(50);
    expect(out.startsWith("line ")).toBe(true);
    expect(suffixToTokens("short", 50, h)).toBe("short");
    expect(suffixToTokens("short", 0, h)).toBe("");
  });
});

describe("toolResults options", () => {
  const resolve = (value: unknown) =>
    toolResultPolicy(checkToolResultLevel(value, "toolResults"), DEFAULT_TOOL_RESULTS);
  it("resolves the defaults and each key over the level above, and refuses unknown keys and bad values, naming them", () => {
    expect(resolve(undefined)).toEqual(DEFAULT_TOOL_RESULTS);
    expect(resolve({})).toEqual(DEFAULT_TOOL_RESULTS);
    expect(resolve({ truncate: false })).toEqual({ truncate: null, clear: null });
    expect(resolve({ truncate: true })).toEqual({ truncate: { maxTokens: null, keep: "head-tail" }, clear: null });
    expect(resolve({ truncate: { maxTokens: 500, keep: "tail" } })).toEqual({
      truncate: { maxTokens: 500, keep: "tail" },
      clear: null,
    });
    expect(resolve({ clear: true })).toEqual({ truncate: DEFAULT_TOOL_RESULTS.truncate, clear: DEFAULT_CLEAR });
    expect(
      resolve({ clear: { keepNewest: 5, atLeast: 0, trigger: { fraction: 0.5 }, exclude: ["todo"], inputs: true } })
        .clear,
    ).toEqual({ keepNewest: 5, atLeast: 0, trigger: { fraction: 0.5 }, exclude: ["todo"], inputs: true });
    // A level sets keys: the others stay the level above's.
    const above = resolve({ clear: { keepNewest: 9 }, truncate: false });
    expect(toolResultPolicy(checkToolResultLevel({ truncate: true }, "t"), above)).toEqual({
      truncate: DEFAULT_TOOL_RESULTS.truncate,
      clear: above.clear,
    });
    expect(toolResultPolicy(checkToolResultLevel({ clear: false }, "t"), above)).toEqual({
      truncate: null,
      clear: null,
    });
    for (const bad of [
      { truncat: true },
      { truncate: { maxToken: 5 } },
      { truncate: { maxTokens: 15 } },
      { truncate: { maxTokens: "9" } },
      { truncate: { keep: "middle" } },
      { truncate: "yes" },
      "on",
      null,
      { clear: "yes" },
      { clear: { keep: 3 } },
      { clear: { keepNewest: -1 } },
      { clear: { keepNewest: 1.5 } },
      { clear: { atLeast: -5 } },
      { clear: { trigger: 100 } },
      { clear: { trigger: { tokens: 1, fraction: 0.5 } } },
      { clear: { trigger: {} } },
      { clear: { trigger: { fraction: 2 } } },
      { clear: { trigger: { tokens: -1 } } },
      { clear: { exclude: "todo" } },
      { clear: { exclude: [""] } },
      { clear: { inputs: "yes" } },
    ]) {
      expectThrowCode(() => resolve(bad), "INVALID_ARGUMENT");
    }
    expect(() => resolve({ truncate: { maxToken: 5 } })).toThrow('"maxTokens"');
    expect(() => resolve({ clear: { keep: 3 } })).toThrow('"keepNewest"');
  });

  it("a level is kept as a copy of what it sets: changing the caller's object later changes nothing", () => {
    const given = { clear: { exclude: ["a"], trigger: { tokens: 5 } }, truncate: { maxTokens: 100 } };
    const kept = checkToolResultLevel(given, "t")!;
    given.clear.exclude.push("b");
    given.clear.trigger.tokens = 9;
    given.truncate.maxTokens = 200;
    expect(kept).toEqual({ clear: { exclude: ["a"], trigger: { tokens: 5 } }, truncate: { maxTokens: 100 } });
  });

  it("the marker groups digits the same on every runtime", () => {
    expect(omissionMarker(12345, 1234567)).toBe("\n[... 12,345 of 1,234,567 tokens of this tool result omitted ...]\n");
    expect(omissionMarker(12345, 1234567, 42)).toBe(
      "\n[... 12,345 of 1,234,567 tokens of this tool result (message 42) omitted ...]\n",
    );
  });
});
