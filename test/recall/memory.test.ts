// RecallIndex: what `add` embeds can be persisted and restored without calling the embedder;
// the texts are indexed again from the messages (`index`), as recall rebuilds a scope.
import { expect, it } from "vitest";
import type { Embedder } from "../../src/recall/embedder.js";
import { hashingEmbedder } from "../../src/recall/hashing.js";
import { RecallIndex } from "../../src/recall/memory.js";
import type { RecallMessage } from "../../src/recall/policy.js";
import { expectThrowCode, forEachEngine, makeEngine } from "../helpers.js";

const TEXTS = [
  "I planted tulips by the fence.",
  "Lovely, they bloom in spring.",
  "What is a good bread recipe?",
  "Try a simple sourdough.",
];
const items = TEXTS.map((content, key) => ({
  key,
  role: (key % 2 ? "assistant" : "user") as "user" | "assistant",
  content,
}));
const messages: RecallMessage[] = TEXTS.map((_, key) => ({
  key,
  parent: key - 1,
  role: key % 2 ? "assistant" : "user",
}));

forEachEngine((kind) => {
  it("add returns the vectors; restore brings them back without the embedder, index the texts, with the same answers", async () => {
    const inner = hashingEmbedder({ dimension: 64 });
    let calls = 0;
    const counting: Embedder = { name: inner.name, dimension: 64, embed: (t, s) => (calls++, inner.embed(t, s)) };
    const first = RecallIndex.create(await makeEngine(kind), { embedder: counting });
    const vectors = await first.add([
      ...items,
      { key: 9, role: "system", content: "You are kind." },
      { key: 10, role: "user", content: "  " },
    ]);
    expect(vectors.map((v) => v.key)).toEqual([0, 1, 2, 3]); // system and empty texts are not embedded
    expect(vectors[0]!.vector).toEqual((await inner.embed([TEXTS[0]!]))[0]);
    expect(calls).toBe(1);

    const second = RecallIndex.create(await makeEngine(kind), { embedder: counting });
    second.restore(vectors);
    expect(calls).toBe(1);
    // The vectors alone find the tulips too (the dense channel searches when words match nothing).
    expect((await second.recall("when do my tulips flower?", messages, { recent: 0 })).exchanges[0]!.keys).toEqual([
      0, 1,
    ]);
    second.index(items);
    expect(second.lexical.size).toBe(4);
    const want = await first.recall("when do my tulips flower?", messages, { recent: 0 });
    expect(await second.recall("when do my tulips flower?", messages, { recent: 0 })).toEqual(want);
    expect(want.exchanges[0]!.keys).toEqual([0, 1]);

    expectThrowCode(() => second.restore([{ key: 0, role: "user", vector: vectors[0]!.vector }]), "INVALID_ARGUMENT");
    expectThrowCode(() => second.restore([{ key: 5, role: "user", vector: new Float32Array(3) }]), "INVALID_ARGUMENT");
    expectThrowCode(
      () => second.restore([{ key: 5, role: "user", vector: new Float32Array(64).fill(NaN) }]),
      "INVALID_ARGUMENT",
    );
    expect(second.has(5)).toBe(false);
  });
});
