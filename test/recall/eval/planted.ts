// The first recall-quality table (kept for test/recall/planted.test.ts; the suite is now
// bench/recall-quality.ts, on the generated evaluation set of test/recall/eval/).
// Recall quality of the built-in hashing embedder: 40 facts planted in a long conversation,
// each asked for later in other words (test/recall/eval-set.ts). recall@k is the share of
// questions whose fact's prompt is among the k prompts most similar to the question; "policy"
// is the share whose fact's exchange the full recall policy (defaults) brings back. Filler:
// synthetic exchanges, and the real OpenAssistant exchanges of ../shared/data when present.
// No public long-conversation QA set is available offline here, hence the hand-written set.

import { JsEngine } from "../../../src/engine/index.js";
import { EmbeddingIndex } from "../../../src/recall/embedding-index.js";
import { hashingEmbedder } from "../../../src/recall/hashing.js";
import { embedTexts, type Embedder } from "../../../src/recall/embedder.js";
import { RecallIndex } from "../../../src/recall/memory.js";
import type { RecallMessage } from "../../../src/recall/policy.js";
import { FACTS, oasstExchanges, plant, syntheticExchanges } from "../eval-set.js";

const KS = [1, 2, 5, 10] as const;

/** Lowercase content words (4+ letters or digits-bearing), for the lexical-overlap split. */
const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4);

/**
 * Whether a question shares a word stem with its fact (a common prefix of 4+ characters between
 * two words of 4+): the only kind of paraphrase a lexical embedder can bridge.
 */
export function sharesStem(a: string, b: string): boolean {
  const wb = words(b);
  return words(a).some((x) => wb.some((y) => x.slice(0, 4) === y.slice(0, 4)));
}

export interface QualityRow {
  filler: string;
  exchanges: number;
  embedder: string;
  [key: string]: string | number;
}

async function evaluate(
  filler: [string, string][],
  fillerName: string,
  count: number,
  embedder: Embedder,
  seed: number,
): Promise<QualityRow> {
  const { exchanges, where } = plant(filler, count, FACTS, seed);
  const engine = new JsEngine(); // both engines answer identically; the figure does not depend on it
  const prompts = EmbeddingIndex.create(engine, { dimension: embedder.dimension });
  prompts.add(
    exchanges.map((_, e) => e),
    await embedTexts(
      embedder,
      exchanges.map(([u]) => u),
    ),
  );
  const questions = await embedTexts(
    embedder,
    FACTS.map((f) => f.question),
  );
  const found: Record<number, number> = { 1: 0, 2: 0, 5: 0, 10: 0 };
  let lexical = 0;
  let lexicalFound = 0;
  for (let i = 0; i < FACTS.length; i++) {
    const hits = prompts.search(questions.subarray(i * embedder.dimension, (i + 1) * embedder.dimension), { k: 10 });
    const rank = hits.findIndex((h) => h.key === where[i]);
    for (const k of KS) if (rank >= 0 && rank < k) found[k]!++;
    if (sharesStem(FACTS[i]!.fact, FACTS[i]!.question)) {
      lexical++;
      if (rank >= 0 && rank < 5) lexicalFound++;
    }
  }
  // The full policy, as the Chat will run it: defaults (2 prompts, 3 similar answers each, last 5).
  const memory = RecallIndex.create(engine, { embedder });
  const items = exchanges.flatMap(([user, assistant], e) => [
    { key: 2 * e, role: "user" as const, content: user },
    { key: 2 * e + 1, role: "assistant" as const, content: assistant },
  ]);
  await memory.add(items);
  const messages: RecallMessage[] = items.map((m) => ({ key: m.key, parent: m.key - 1, role: m.role }));
  let policy = 0;
  for (let i = 0; i < FACTS.length; i++) {
    const r = await memory.recall(FACTS[i]!.question, messages);
    if (r.exchanges.some((e) => e.start === 2 * where[i]!)) policy++;
  }
  const row: QualityRow = { filler: fillerName, exchanges: count, embedder: embedder.name };
  for (const k of KS) row[`recall@${k}`] = +(found[k]! / FACTS.length).toFixed(3);
  row["policy (defaults)"] = +(policy / FACTS.length).toFixed(3);
  row["recall@5, shared stem"] = `${(lexicalFound / lexical).toFixed(3)} (${lexical} of ${FACTS.length})`;
  return row;
}

/** The quality table: every filler at the given sizes, for the built-in embedder at 384 and 512 dimensions. */
export async function recallQuality(smoke = false): Promise<QualityRow[]> {
  const sizes = smoke ? [1_000] : [1_000, 5_000];
  const fillers: [string, [string, string][]][] = [["synthetic", syntheticExchanges(5_000)]];
  const real = oasstExchanges();
  if (real) fillers.push(["OASST (real)", real]);
  else console.warn("recall-quality: ../shared/data is absent; synthetic filler only.");
  const rows: QualityRow[] = [];
  for (const [name, filler] of fillers) {
    for (const count of sizes) {
      for (const dimension of smoke ? [384] : [384, 512]) {
        rows.push(await evaluate(filler, name, count, hashingEmbedder({ dimension }), 7));
      }
    }
  }
  return rows;
}
