// Recall in a build: what the recall defaults bring into a context. For each question, a
// build of the conversation's chat with the question as its input (the model's window holds
// the newest turns; recall fills the memory slice) under a recall configuration; the figure
// is the share of the question's evidence turns the context holds (its window or its
// recalled messages), averaged over questions. Measured on the tuning conversations only.

import { Loom } from "../../src/index.js";
import type { BuildRecallOptions } from "../../src/context/types.js";
import type { Conversation } from "../../test/recall/eval/generate.js";

/** A model whose window keeps a few dozen turns of these conversations and a memory slice of about 1,500 tokens. */
export const BUILD_MODEL = { name: "recall-eval-8k", contextWindow: 8192 };

export interface BuildRow {
  recall: string;
  questions: number;
  "evidence in the context, %": number;
  "recalled messages, mean": number;
  "memory tokens, mean": number;
}

/** Evidence held by the contexts built under each configuration. */
export async function evaluateBuilds(
  conversations: readonly Conversation[],
  configs: readonly (BuildRecallOptions | false)[],
): Promise<BuildRow[]> {
  const sums = configs.map(() => ({ n: 0, held: 0, recalled: 0, memory: 0 }));
  for (const c of conversations) {
    const loom = await Loom.open({ engine: "wasm", counter: "heuristic" });
    const chat = await loom.user("eval").create({ title: `conversation ${c.id}` });
    for (const t of c.turns) await chat.append({ role: t.speaker === 0 ? "user" : "assistant", content: t.text });
    for (const q of c.questions) {
      for (const [i, recall] of configs.entries()) {
        const ctx = await chat.buildContext({ model: BUILD_MODEL, input: q.question, recall });
        const held = new Set([...ctx.conversation, ...ctx.recalled].map((m) => m.id));
        const s = sums[i]!;
        s.n++;
        s.held += q.evidence.filter((e) => held.has(e)).length / q.evidence.length;
        s.recalled += ctx.recalled.length;
        s.memory += ctx.usage.memory;
      }
    }
    await loom.close();
  }
  return configs.map((recall, i) => {
    const s = sums[i]!;
    return {
      recall: JSON.stringify(recall),
      questions: s.n,
      "evidence in the context, %": +((100 * s.held) / s.n).toFixed(1),
      "recalled messages, mean": +(s.recalled / s.n).toFixed(1),
      "memory tokens, mean": Math.round(s.memory / s.n),
    };
  });
}
