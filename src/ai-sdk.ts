// ctxloom/ai-sdk: chats with the AI SDK (`ai` 7). Type imports of `ai` only: this entry
// loads without it at run time.
export { toModelContext, toModelMessages, fromModelMessages, type ModelContext, type FromModelOptions } from "./adapters/ai-sdk.js";
export { chatLoop, type ChatLoop, type ChatLoopOptions } from "./adapters/ai-sdk-loop.js";
export { toUIMessages, fromUIMessages, type ChatUIMessage, type ChatUIMetadata } from "./adapters/ui-messages.js";
