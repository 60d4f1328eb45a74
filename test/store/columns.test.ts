// The message columns of the memory store (and of chats over other stores): every field comes
// back exactly, whatever the creation times.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MessageColumns, type Message } from "../../src/index.js";

const message = (id: number, createdAt: number, over: Partial<Message> = {}): Message => ({
  id, parentId: id === 0 ? null : id - 1, role: "user", content: `m${id}`, priority: "normal", tokens: id, createdAt, kind: "message", ...over,
});

describe("MessageColumns", () => {
  it("keeps every field, optional ones included, and hands out copies", () => {
    const cols = new MessageColumns();
    const calls = [{ id: "k", type: "function" as const, function: { name: "f", arguments: "{}" } }];
    const all: Message[] = [
      message(0, 1_700_000_000_123, { name: "alice", priority: "critical", tokens: 2 ** 30 }),
      message(1, 1_700_000_000_124, { role: "assistant", content: "", toolCalls: calls, priority: "low" }),
      message(2, 1_700_000_000_100, { role: "tool", content: "r", toolCallId: "k", priority: "low" }),
      message(3, 5.5, { role: "system", kind: "summary", covers: { first: 0, last: 2 } }),
    ];
    for (const m of all) cols.push(m);
    expect(cols.slice(0)).toEqual(all);
    const out = cols.message(1);
    out.toolCalls![0]!.function.name = "changed";
    expect(cols.message(1).toolCalls).toEqual(calls);
    calls[0]!.id = "changed"; // the caller's objects are not kept either
    expect(cols.message(1).toolCalls![0]!.id).toBe("k");
  });

  it("creation times come back exactly: in order, set back, fractional, negative, huge, across blocks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(-0)), { minLength: 1, maxLength: 9000 }),
        fc.double({ min: -1e15, max: 1e15, noNaN: true }),
        (steps, start) => {
          const cols = new MessageColumns();
          const times: number[] = [];
          let t = start;
          for (const [i, step] of steps.entries()) {
            t = Number.isInteger(step) && step >= 0 ? t + step : step;
            times.push(t);
            cols.push(message(i, t));
          }
          for (let i = 0; i < times.length; i++) expect(Object.is(cols.createdAt(i), times[i])).toBe(true);
        },
      ),
      { numRuns: 30 },
    );
  });
});
