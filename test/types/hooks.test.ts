// The ready-made hooks and the LangChain history take the SDKs' own objects without a cast and
// fit where the library takes them (checked by the root tsc): Loom.open({ summaries: { summarizer }, recall: { embedder } }),
// RunnableWithMessageHistory's getMessageHistory. Type imports only.
import { expectTypeOf, it } from "vitest";
import type { EmbeddingModel, LanguageModel } from "ai";
import type OpenAI from "openai";
import type { BaseChatMessageHistory } from "@langchain/core/chat_history";
import type { Embedder, LoomOptions, Summarizer, Chat } from "../../src/index.js";
import { aiSdkEmbedder, aiSdkSummarizer } from "../../src/ai-sdk.js";
import { openAIEmbedder, openAISummarizer } from "../../src/openai.js";
import { CtxloomChatMessageHistory } from "../../src/langchain.js";

/** Never called: what tsc checks is the types of these calls. */
function typeChecks(model: LanguageModel, embedding: EmbeddingModel, client: OpenAI, chat: Chat): void {
  expectTypeOf(aiSdkSummarizer(model)).toEqualTypeOf<Summarizer>();
  expectTypeOf(
    aiSdkSummarizer("openai/gpt-4o-mini", {
      maxOutputTokens: 400,
      providerOptions: { openai: { reasoningEffort: "minimal" } },
    }),
  ).toEqualTypeOf<Summarizer>();
  expectTypeOf(aiSdkEmbedder(embedding, { dimensions: 1536 })).toEqualTypeOf<Embedder>();
  expectTypeOf(openAISummarizer(client, { model: "gpt-4o-mini" })).toEqualTypeOf<Summarizer>();
  expectTypeOf(openAIEmbedder(client, { model: "text-embedding-3-small", dimensions: 1536 })).toEqualTypeOf<Embedder>();
  expectTypeOf({
    summaries: { summarizer: openAISummarizer(client, { model: "gpt-4o-mini" }) },
    recall: { embedder: aiSdkEmbedder(embedding, { dimensions: 1536 }) },
  }).toExtend<LoomOptions>();
  expectTypeOf(new CtxloomChatMessageHistory(chat)).toExtend<BaseChatMessageHistory>();
  expectTypeOf(
    new CtxloomChatMessageHistory(chat, { context: { maxMessages: 20, recall: true }, reasoning: "drop" }).chat,
  ).toEqualTypeOf<Chat>();
  // @ts-expect-error an embedder needs its dimensions
  aiSdkEmbedder(embedding, {});
  // @ts-expect-error the OpenAI hooks need a model
  openAISummarizer(client, {});
  // @ts-expect-error a history's context is built as LangChain messages: no format
  new CtxloomChatMessageHistory(chat, { context: { format: "anthropic" } });
}
void typeChecks;

it("is checked by tsc", () => {});
