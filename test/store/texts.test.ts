// Texts kept as UTF-8 (chats opened from a store outside the process) read back exactly what
// strings would: any Unicode, empty texts, runs handed over whole or copied, past the cache.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/index.js";
import { MessageColumns } from "../../src/store/columns.js";
import { expectThrowCode } from "../helpers.js";
import { StringTexts, Utf8Texts } from "../../src/store/texts.js";

const encoder = new TextEncoder();
/** Well-formed text: what an append accepts (no lone surrogate), empty included. */
const plain = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }).map((s) => s.replace(/\p{Cs}/gu, "\uFFFD")),
  fc.constant(""),
);
/** ... and texts that start with U+FEFF, which a UTF-8 decoder drops as a byte order mark unless told not to. */
const text = fc.oneof(
  plain,
  plain.map((t) => "\uFEFF" + t),
);

describe("Utf8Texts", () => {
  it("gives back every text, pushed one by one or in runs (copied or adopted), as StringTexts does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("push", "run", "adopt"), fc.array(text, { minLength: 1, maxLength: 12 })), {
          maxLength: 30,
        }),
        (steps) => {
          const utf8 = new Utf8Texts();
          const strings = new StringTexts();
          for (const [how, texts] of steps) {
            for (const t of texts) strings.push(t);
            if (how === "push") for (const t of texts) utf8.push(t);
            else {
              const parts = texts.map((t) => encoder.encode(t));
              const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
              parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
              utf8.pushRun(
                bytes,
                parts.map((p) => p.length),
                how === "adopt",
              );
            }
          }
          expect(utf8.size).toBe(strings.size);
          for (let id = strings.size - 1; id >= 0; id--) {
            expect(utf8.get(id)).toBe(strings.get(id));
            expect(utf8.isEmpty(id)).toBe(strings.isEmpty(id));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("texts larger than a slab, thousands of them, read in any order past the cache", () => {
    const utf8 = new Utf8Texts();
    const all: string[] = [];
    for (let i = 0; i < 6000; i++) {
      const t = i % 1000 === 7 ? "é😀x".repeat(400_000 + i) : `message ${i} ${"ü".repeat(i % 50)}`;
      all.push(t);
      utf8.push(t);
    }
    for (let i = 0; i < all.length; i += 3) expect(utf8.get(i)).toBe(all[i]);
    for (let i = all.length - 1; i >= 0; i -= 7) expect(utf8.get(i)).toBe(all[i]);
    expect(utf8.bytes).toBeGreaterThan(6 * 1_200_000);
  });
});

describe("MessageColumns with UTF-8 texts", () => {
  it("hand out the same messages as with strings, for pushes and stored runs", () => {
    const calls = [{ id: "k", type: "function" as const, function: { name: "f", arguments: "{}" } }];
    const all: Message[] = [
      {
        id: 0,
        parentId: null,
        role: "user",
        content: "Grüße 👋",
        priority: "high",
        tokens: 7,
        createdAt: 1.5,
        kind: "message",
        name: "ana",
      },
      {
        id: 1,
        parentId: 0,
        role: "assistant",
        content: "",
        priority: "normal",
        tokens: 9,
        createdAt: 2,
        kind: "message",
        toolCalls: calls,
      },
      {
        id: 2,
        parentId: 1,
        role: "tool",
        content: '{"ok":true}',
        priority: "normal",
        tokens: 4,
        createdAt: 3,
        kind: "message",
        toolCallId: "k",
      },
    ];
    const strings = new MessageColumns();
    const pushed = new MessageColumns({ utf8: true });
    for (const m of all) {
      strings.push(m);
      pushed.push(m);
    }
    const run = new MessageColumns({ utf8: true });
    const bytes = all.map((m) => encoder.encode(m.content));
    const joined = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
    bytes.reduce((at, b) => (joined.set(b, at), at + b.length), 0);
    run.pushRun(
      joined,
      bytes.map((b) => b.length),
      {
        parents: [-1, 0, 1],
        codes: [1 | (2 << 2), 2 | (1 << 2), 3 | (1 << 2)],
        tokens: [7, 9, 4],
        created: [1.5, 2, 3],
        extras: [{ name: "ana" }, { toolCalls: structuredClone(calls) }, { toolCallId: "k" }],
      },
    );
    expect(strings.slice(0)).toEqual(all);
    expect(pushed.slice(0)).toEqual(all);
    expect(run.slice(0)).toEqual(all);
    expect(pushed.utf8 && run.utf8 && !strings.utf8).toBe(true);
    expect(Object.isFrozen(run.extras.get(1)!.toolCalls![0]!.function)).toBe(true);
    expect(run.columnBytes).toBeGreaterThan(strings.columnBytes);
  });
});

it("new MessageColumns refuses unknown options and a utf8 that is not a boolean", () => {
  for (const options of [{ utf: true }, { utf8: "yes" }, 5, null])
    expectThrowCode(() => new MessageColumns(options as never), "INVALID_ARGUMENT");
  expect(new MessageColumns({ utf8: true }).utf8).toBe(true);
  expect(new MessageColumns().utf8).toBe(false);
});
