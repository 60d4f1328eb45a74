// The message columns of the memory store (and of chats over other stores): every field comes
// back exactly, whatever the creation times.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Message } from "../../src/index.js";
import { MessageColumns } from "../../src/store/columns.js";

const message = (id: number, createdAt: number, over: Partial<Message> = {}): Message => ({
  id,
  parentId: id === 0 ? null : id - 1,
  role: "user",
  content: `m${id}`,
  priority: "normal",
  tokens: id,
  createdAt,
  kind: "message",
  ...over,
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

  it("extrasOf gives the rare fields of exactly the messages that have them (pushed one by one or as a run)", () => {
    const cols = new MessageColumns({ utf8: true });
    cols.push(message(0, 1, { name: "alice" }));
    cols.push(message(1, 2));
    cols.push(message(2, 3, { role: "system", kind: "summary", covers: { first: 0, last: 1 } }));
    const text = new TextEncoder().encode("abc");
    cols.pushRun(text, [1, 2], {
      parents: [2, 3],
      codes: [1, 1],
      tokens: [1, 1],
      created: [4, 5],
      extras: [null, { toolCallId: "k" }],
    });
    expect([0, 1, 2, 3, 4].map((id) => cols.extrasOf(id))).toEqual([
      { name: "alice" },
      undefined,
      { covers: { first: 0, last: 1 } },
      undefined,
      { toolCallId: "k" },
    ]);
    // The flag lives beside role, priority and kind, and changes none of them.
    expect([0, 1, 2, 3, 4].map((id) => [cols.roleCodeOf(id), cols.priorityCodeOf(id), cols.kindOf(id)])).toEqual([
      [1, 1, "message"],
      [1, 1, "message"],
      [0, 1, "summary"],
      [1, 0, "message"],
      [1, 0, "message"],
    ]);
    expect(cols.message(4)).toMatchObject({ role: "user", content: "bc", toolCallId: "k" });
  });

  it("creation times come back exactly: in order, set back, fractional, negative, huge, across blocks", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 0, max: 5000 }),
            fc.double({ noNaN: true, noDefaultInfinity: true }),
            fc.constant(-0),
          ),
          { minLength: 1, maxLength: 9000 },
        ),
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
