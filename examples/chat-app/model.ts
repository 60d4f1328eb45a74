// The example's model: a real provider when AI_GATEWAY_API_KEY is set (the AI SDK's gateway,
// built into `ai`), else a scripted one that streams a canned answer, so that the app runs
// offline and its browser test knows what to expect.
import { simulateReadableStream, type LanguageModel } from "ai";
import { MockLanguageModelV4 } from "ai/test";

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/**
 * A model that answers "Answer <n> to “<the user's last words>”: ...", streamed a few words at a
 * time (`delayMs` apart), n counting the answers it gave: a regenerated answer differs.
 */
export function cannedModel(delayMs = 15): MockLanguageModelV4 {
  let answers = 0;
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const last = [...prompt].reverse().find((m) => m.role === "user");
      const said = last && Array.isArray(last.content) ? last.content.map((p) => (p.type === "text" ? p.text : "")).join(" ") : "";
      const text = `Answer ${++answers} to “${said.slice(0, 60)}”: ctxloom kept this chat in SQLite, so it survives a reload.`;
      const words = text.split(/(?<= )/);
      return {
        stream: simulateReadableStream({
          chunkDelayInMs: delayMs,
          chunks: [
            { type: "stream-start" as const, warnings: [] },
            { type: "text-start" as const, id: "t" },
            ...words.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
            { type: "text-end" as const, id: "t" },
            { type: "finish" as const, finishReason: { unified: "stop" as const, raw: undefined }, usage },
          ],
        }),
      };
    },
  });
}

/** The model to answer with: the gateway's `CHAT_MODEL` (default openai/gpt-4o-mini) with a key, the canned one without. */
export function appModel(): { model: LanguageModel; name: string } {
  if (process.env.AI_GATEWAY_API_KEY) {
    const name = process.env.CHAT_MODEL ?? "openai/gpt-4o-mini";
    return { model: name, name };
  }
  return { model: cannedModel(), name: "canned (no AI_GATEWAY_API_KEY)" };
}
