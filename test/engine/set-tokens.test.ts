// Engine.setTokens (a redaction counts a message and its summaries anew): on both engines, the
// node's count changes and nothing else, and selections from then on count it so.
import { beforeEach, expect, it } from "vitest";
import type { Engine } from "../../src/engine/index.js";
import { forEachEngine, makeEngine } from "../helpers.js";

forEachEngine((kind) => {
  let e: Engine;
  beforeEach(async () => {
    e = await makeEngine(kind);
  });

  it("setTokens changes one node's tokens (a message or a summary), and selections count it so", () => {
    const t = e.createTree();
    const other = e.createTree();
    for (let i = 0; i < 40; i++) {
      e.append(t, i - 1, 10, 1 + (i & 1), 1, 0); // user, assistant, ... 10 tokens each
      e.append(other, i - 1, 10, 1 + (i & 1), 1, 0);
    }
    const s = e.attachSummary(t, 0, 29, 25, 2); // 40: stands for 0..29
    expect(e.select(t, 39, 1_000, 1_000)).toMatchObject({ keptTokens: 25 + 10 * 10 });
    e.setTokens(t, 35, 3); // a redacted message
    e.setTokens(t, s, 12); // its summary, redone
    expect([e.tokens(t, 35), e.tokens(t, s), e.tokens(t, 34), e.tokens(other, 35)]).toEqual([3, 12, 10, 10]);
    expect(e.select(t, 39, 1_000, 1_000)).toMatchObject({ keptTokens: 12 + 9 * 10 + 3 });
    // A budget that held 5 messages holds 6 once one of them costs less.
    expect(Array.from(e.select(other, 39, 53, 1_000).ids)).toEqual([35, 36, 37, 38, 39]);
    e.setTokens(other, 35, 3);
    expect(Array.from(e.select(other, 39, 53, 1_000).ids)).toEqual([34, 35, 36, 37, 38, 39]);
  });
});
