// ctxloom/langchain: chats with LangChain (`@langchain/core` 1, an optional peer dependency
// this entry loads): messages both ways, and a chat message history backed by a chat.
export { toLangChainMessages, fromLangChainMessages } from "./adapters/langchain.js";
export {
  CtxloomChatMessageHistory,
  type ChatHistoryOptions,
  type HistoryContextOptions,
} from "./adapters/langchain-history.js";
export type { ConvertibleMessage, FromOptions, ReasoningMode } from "./adapters/common.js";
export {
  ctxloomMiddleware,
  langchainReadTool,
  type CtxloomMiddleware,
  type MiddlewareOptions,
} from "./adapters/langchain-agent.js";
export {
  readToolResult,
  type ReadToolOptions,
  type ToolResultRequest,
  type ToolResultPage,
} from "./adapters/read-tool.js";
