// The tree builder on random trees: whatever the file order, times and left-out nodes, the
// chat has the same branches and head as the raw tree, ids put parents first, and ids follow
// creation time wherever a parent allows it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildChat } from "../../src/import/build.js";
import type { RawConversation, RawNode } from "../../src/import/types.js";
import { actualView, expectedView } from "./tree-check.js";

const tree = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.record({
    parents: fc.tuple(
      ...Array.from({ length: n }, (_, i) => (i === 0 ? fc.constant(-1) : fc.integer({ min: -1, max: i - 1 }))),
    ),
    times: fc.array(fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }), { minLength: n, maxLength: n }),
    skips: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    order: fc.shuffledSubarray(
      Array.from({ length: n }, (_, i) => i),
      { minLength: n, maxLength: n },
    ),
    head: fc.integer({ min: 0, max: n - 1 }),
  }),
);

describe("buildChat", () => {
  it("keeps every branch and the head, parents first, in creation order", () => {
    fc.assert(
      fc.property(tree, ({ parents, times, skips, order, head }) => {
        const nodes: RawNode[] = order.map((i) => {
          const node: RawNode = {
            key: `k${i}`,
            parent: parents[i]! < 0 ? null : `k${parents[i]}`,
            role: i % 2 ? "assistant" : "user",
            content: `m${i}`,
          };
          if (times[i] !== undefined) node.createdAt = times[i];
          if (skips[i]) node.skip = "test";
          return node;
        });
        const conv: RawConversation = {
          where: "t",
          sourceId: undefined,
          title: "t",
          sourceModel: undefined,
          system: null,
          createdAt: 0,
          updatedAt: undefined,
          nodes,
          head: `k${head}`,
          placeholders: {},
        };
        const { chat, report } = buildChat(conv, { model: "gpt-4o", now: 0 });
        // Creation order, by a naive reading of the rule: the next id goes to the earliest
        // (time, then file position) node whose parent has one; a node without a time takes its parent's.
        const time = new Map<string, number>();
        const done = new Set<string>();
        const expectedOrder: string[] = [];
        while (done.size < nodes.length) {
          let best: { node: RawNode; t: number; at: number } | undefined;
          nodes.forEach((node, at) => {
            if (done.has(node.key) || (node.parent !== null && !done.has(node.parent))) return;
            const t = node.createdAt ?? (node.parent === null ? 0 : time.get(node.parent)!);
            if (!best || t < best.t || (t === best.t && at < best.at)) best = { node, t, at };
          });
          time.set(best!.node.key, best!.t);
          done.add(best!.node.key);
          if (!best!.node.skip) expectedOrder.push(best!.node.key);
        }
        const raw = nodes.map((n) => ({ key: n.key, parent: n.parent, role: n.role, text: n.content, keep: !n.skip }));
        // A head with no kept message at or above it falls back to the last message.
        let headKey = `k${head}`;
        for (let k: string | null = headKey; ; k = nodes.find((n) => n.key === k)!.parent) {
          if (k === null) {
            headKey = expectedOrder.at(-1) ?? headKey;
            break;
          }
          if (!skips[Number(k.slice(1))]) break;
        }
        const expected = expectedView(raw, headKey);
        expect(actualView(chat)).toEqual(expected);
        if (expected.messages > 0) expect(chat.head).not.toBeNull();
        expect(report.skipped.test?.length ?? 0).toBe(skips.filter(Boolean).length);
        expect(
          Object.entries(report.ids)
            .sort((a, b) => a[1] - b[1])
            .map(([k]) => k),
        ).toEqual(expectedOrder);
        expect(chat.messages.map((m) => m.createdAt)).toEqual(expectedOrder.map((k) => time.get(k)));
      }),
      { numRuns: 300 },
    );
  });
});
