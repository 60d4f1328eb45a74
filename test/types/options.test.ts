// The option groups and the model input read the same at every level (checked by the root tsc):
// create({ model }) takes what buildContext({ model }) takes (a name, a profile written by hand,
// an AI SDK model object); summaries and recall are one option each, the same group keys where
// a level takes them. Type-level only.
import { expectTypeOf, it } from "vitest";
import type { BuildOptions, ChatOptions, CreateChatOptions, LoomOptions, SummaryOptions } from "../../src/index.js";

it("create({ model }) and buildContext({ model }) take the same model input", () => {
  expectTypeOf<NonNullable<CreateChatOptions["model"]>>().toEqualTypeOf<NonNullable<BuildOptions["model"]>>();
  expectTypeOf({ name: "small-model", contextWindow: 1_000, tokensPerChar: 0.25 }).toExtend<
    NonNullable<CreateChatOptions["model"]>
  >();
  expectTypeOf({ provider: "openai.responses", modelId: "gpt-5" }).toExtend<NonNullable<CreateChatOptions["model"]>>();
});

it("summaries is one shape, SummaryOptions, narrower at each level down, and what a chat keeps is create()'s", () => {
  expectTypeOf<NonNullable<LoomOptions["summaries"]>>().toEqualTypeOf<boolean | SummaryOptions>();
  expectTypeOf<NonNullable<CreateChatOptions["summaries"]>>().toEqualTypeOf<
    boolean | Omit<SummaryOptions, "summarizer" | "prompt">
  >();
  expectTypeOf<NonNullable<ChatOptions["summaries"]>>().toEqualTypeOf<NonNullable<CreateChatOptions["summaries"]>>();
  expectTypeOf<NonNullable<BuildOptions["summaries"]>>().toEqualTypeOf<
    boolean | Omit<SummaryOptions, "summarizer" | "prompt" | "presentation">
  >();
  expectTypeOf<keyof SummaryOptions>().toEqualTypeOf<
    "trigger" | "select" | "maxTokens" | "timeoutMs" | "presentation" | "summarizer" | "prompt"
  >();
  expectTypeOf<"manual">().toExtend<NonNullable<SummaryOptions["trigger"]>>();
  expectTypeOf<ChatOptions>().not.toHaveProperty("summarize");
  expectTypeOf<ChatOptions>().not.toHaveProperty("summaryPresentation");
});

it("the flat options of 0.x are gone", () => {
  expectTypeOf<LoomOptions>().not.toHaveProperty("summarize");
  expectTypeOf<LoomOptions>().not.toHaveProperty("summarizer");
  expectTypeOf<LoomOptions>().not.toHaveProperty("embed");
  expectTypeOf<CreateChatOptions>().not.toHaveProperty("summaryPresentation");
  expectTypeOf<BuildOptions>().not.toHaveProperty("summarize");
});
