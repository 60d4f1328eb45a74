// A selection whose sort needs scratch memory the core does not have free: the core grows its
// memory inside select (assembly/depth-sort.ts), which detaches every view over the old buffer;
// the wrapper must read the result through fresh views. It read the kept ids through a
// detached one and threw a TypeError (found by recall-engines.test.ts, seed 1654995885: a
// build with recall whose selection came right after recall filled the first page).
import { expect, it } from "vitest";
import { forEachEngine, makeEngine } from "../helpers.js";
import { CRITICAL, NORMAL } from "./reference.js";

forEachEngine((kind) => {
  it("a selection that grows the core's memory returns its result", async () => {
    const e = await makeEngine(kind);
    const t = e.createTree();
    let head = e.append(t, -1, 1, 0, CRITICAL, 0); // a system prompt: the selection's runs are two
    for (let i = 0; i < 300; i++) head = e.append(t, head, 1, 1 + (i & 1), i % 3 === 0 ? CRITICAL : NORMAL, 0);
    e.walk(t, head, 1 << 30); // the output buffer is as large as it needs to be: only the sort's scratch is left
    const need = 4 * e.size(t);
    // Other chats take the free memory (WASM), until the sort's scratch no longer fits it.
    while (kind === "wasm" && e.memoryBytes() - e.memoryUsedBytes() >= need)
      e.append(e.createTree(), -1, 1, 1, NORMAL, 0);
    const before = e.memoryBytes();
    const s = e.select(t, head, 1 << 30, 1 << 30);
    expect(Array.from(s.ids)).toEqual(Array.from({ length: 301 }, (_, i) => i));
    expect(s.keptTokens).toBe(301);
    if (kind === "wasm") expect(e.memoryBytes()).toBeGreaterThan(before); // the case at hand: select grew memory
    expect(e.tokens(t, head)).toBe(1); // and the engine reads its trees after it
  });
});
