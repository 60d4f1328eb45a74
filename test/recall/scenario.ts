// A recall scenario that any runtime can run: embeddings of a small conversation on the given
// engine, searches exact and int8, and the recall policy. Its JSON must be the same everywhere.
import type { Engine } from "../../src/engine/index.js";
import { RecallIndex, hashingEmbedder, type RecallMessage } from "../../src/recall/index.js";

const TEXTS = [
  "My sister Lucinda just moved to Reykjavik for a job at the aquarium.",
  "That sounds exciting for her!",
  "How do I keep sourdough from going flat?",
  "Watch the hydration and the proofing time.",
  "Which espresso grinder should I buy?",
  "A flat burr grinder keeps the crema consistent.",
  "Any tips for my first half marathon?",
  "Build mileage slowly and taper the last week.",
];

export async function recallScenario(engine: Engine): Promise<unknown> {
  const memory = RecallIndex.create(engine, { embedder: hashingEmbedder({ dimension: 128 }), quantized: true });
  const messages: RecallMessage[] = TEXTS.map((_, key) => ({
    key,
    parent: key - 1,
    role: key % 2 ? "assistant" : "user",
  }));
  await memory.add(TEXTS.map((content, key) => ({ key, role: key % 2 ? "assistant" : "user", content })));
  const [query] = (await memory.embedder.embed(["Where does my sister live now?"])) as Float32Array[];
  const bits = (x: number) => new Uint32Array(Float32Array.of(x).buffer)[0];
  const exact = memory.prompts.search(query!, { k: 4, candidates: 0 }).map((h) => [h.key, bits(h.score)]);
  const int8 = memory.prompts.search(query!, { k: 4, candidates: 2 }).map((h) => [h.key, bits(h.score)]);
  const recalled = await memory.recall("Where does my sister live now?", messages, { recent: 1, exclude: [7] });
  return { engine: engine.kind, exact, int8, recalled: recalled.exchanges.map((e) => [e.start, e.reason, e.keys]) };
}
