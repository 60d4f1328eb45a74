// ctxloom/openai: OpenAI SDK objects (Chat Completions messages, Responses items) to chat
// messages. Exports only; nothing of the `openai` package is imported (its types match
// structurally), so this entry loads without it. The output side is `buildContext({ format })`.
export { fromOpenAI, type OpenAIMessageLike, type OpenAICompletionLike } from "./adapters/openai.js";
export { fromResponses, type ResponsesItemLike } from "./adapters/responses.js";
