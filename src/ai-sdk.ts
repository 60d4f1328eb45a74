// ctxloom/ai-sdk: chats with the AI SDK (`ai` 7). Type imports of `ai` only: this entry
// loads without it at run time.
export { toModelContext, toModelMessages, type ModelContext } from "./adapters/ai-sdk.js";
export { fromModelMessages, type FromModelOptions, type ReasoningMode } from "./adapters/ai-sdk-from.js";
export { chatLoop, type ChatLoop, type ChatLoopOptions } from "./adapters/ai-sdk-loop.js";
export { toUIMessages, fromUIMessages, type ChatUIMessage, type ChatUIMetadata } from "./adapters/ui-messages.js";
