// ctxloom/langchain: chats with LangChain (`@langchain/core` 1, an optional peer dependency
// this entry loads).
export { toLangChainMessages, fromLangChainMessages } from "./adapters/langchain.js";
export type { FromOptions, ReasoningMode } from "./adapters/common.js";
