// Recall's pipeline with its parameters open, for the levers of the recall-quality suite: a
// RecallIndex over a conversation's turns (the ranking, the term options and the segments as
// given) and the recall policy over its ranking, which is what chat.recall(q, { prompts: k,
// answersPerPrompt: 0, recent: 0 }) runs. With the defaults it ranks as that call does (a goal
// of the suite checks it); with `names` each turn carries its speaker's name, with `times` its
// time (sessions then show as pauses; without, segments are fixed blocks); with `topK` it
// answers as chat.recall(q, { k }) does (the k best messages) instead.

import type { Engine } from "../../src/engine/index.js";
import { embedTexts, type Embedder } from "../../src/recall/embedder.js";
import { ExchangeScope } from "../../src/recall/exchanges.js";
import { hashingEmbedder } from "../../src/recall/hashing.js";
import { RecallIndex, type RecallIndexOptions } from "../../src/recall/memory.js";
import { rankingWant, recallExchanges } from "../../src/recall/policy.js";
import type { Conversation } from "../../test/recall/eval/generate.js";
import type { Channel } from "./channels.js";

export interface PipelineOptions extends Pick<RecallIndexOptions, "ranking" | "terms" | "segments"> {
  /** Each turn carries its speaker's name (Message.name). */
  names?: boolean;
  /** Each turn carries its time (Message.createdAt); without, turns are 1 ms apart, as if appended in one go. */
  times?: boolean;
  /** The embedder (default: the built-in one). */
  embedder?: () => Embedder;
  /** The k best messages (chat.recall(q, { k })) instead of the first k of the exchanges. */
  topK?: boolean;
}

/** The pipeline as a channel: the first k messages of the exchanges recalled for `prompts: k`. */
export const pipeline = (name: string, engine: Engine, o: PipelineOptions = {}): Channel => ({
  name,
  async open(c: Conversation) {
    const embedder = o.embedder?.() ?? hashingEmbedder();
    const index = RecallIndex.create(engine, { embedder, ranking: o.ranking, terms: o.terms, segments: o.segments });
    const start = Date.parse(c.turns[0]!.at);
    await index.add(
      c.turns.map((t) => ({
        key: t.id,
        role: t.speaker === 0 ? "user" : "assistant",
        content: t.text,
        ...(t.id > 0 ? { prev: t.id - 1 } : {}),
        time: o.times ? Date.parse(t.at) : start + t.id,
        ...(o.names ? { name: c.speakers[t.speaker] } : {}),
      })),
    );
    const scope = ExchangeScope.of(
      c.turns.map((t) => ({ key: t.id, parent: t.id - 1, role: t.speaker === 0 ? "user" : "assistant" })),
    );
    return {
      async rank(question: string, k: number) {
        const vector = await embedTexts(embedder, [question]);
        if (o.topK)
          return index
            .rank({ text: question, vector }, scope, k)
            .slice(0, k)
            .map((r) => r.key);
        const counts = { prompts: k, answersPerPrompt: 0, recent: 0 };
        const ranked = index.rank({ text: question, vector }, scope, rankingWant(counts));
        const result = recallExchanges({ messages: scope, ranked, answers: index.answers }, counts);
        return result.messages.slice(0, k).map((m) => m.key);
      },
      close: async () => index.drop(),
    };
  },
});
