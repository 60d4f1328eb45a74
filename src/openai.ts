// ctxloom/openai: OpenAI SDK objects (Chat Completions messages, Responses items) to chat
// messages. Exports only; nothing of the `openai` package is imported (its types match
// structurally), so this entry loads without it. The output side is `buildContext({ format })`.
export { fromOpenAIMessages, type OpenAIMessageLike, type OpenAICompletionLike } from "./adapters/openai.js";
export { fromResponseItems, type ResponseItemLike } from "./adapters/responses.js";
export type { FromOptions, ReasoningMode } from "./adapters/common.js";
