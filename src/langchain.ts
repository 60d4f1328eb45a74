// ctxloom/langchain: chats with LangChain (`@langchain/core` 1, an optional peer dependency
// this entry loads).
export { toLangChain, fromLangChain, type FromLangChainOptions } from "./adapters/langchain.js";
