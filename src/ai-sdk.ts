// ctxloom/ai-sdk: chats with the AI SDK (`ai` 7, an optional peer dependency this entry loads).
export { toModelContext, toModelMessages, type ModelContext } from "./adapters/ai-sdk.js";
export { fromModelMessages } from "./adapters/ai-sdk-from.js";
export { chatLoop, type ChatLoop, type ChatLoopOptions } from "./adapters/ai-sdk-loop.js";
export {
  toUIMessages,
  fromUIMessages,
  type ChatUIMessage,
  type ChatUIMetadata,
  type ChatUIPlace,
} from "./adapters/ui-messages.js";
export { chatTurn, type ChatTurn, type ChatTurnOptions, type ChatTurnStream } from "./adapters/ai-sdk-route.js";
export { switchBranch } from "./adapters/ai-sdk-branch.js";
export { resumeTurn } from "./adapters/ai-sdk-resume.js";
export { resolveToolSet } from "./adapters/ai-sdk-tools.js";
export {
  aiSdkSummarizer,
  aiSdkEmbedder,
  type AiSdkSummarizerOptions,
  type AiSdkEmbedderOptions,
  type AiSdkProviderOptions,
} from "./adapters/ai-sdk-hooks.js";
export type { ConvertibleMessage, FromOptions, ReasoningMode } from "./adapters/common.js";
export { aiSdkReadTool, type ReadToolSet } from "./adapters/ai-sdk-read-tool.js";
export {
  readToolResult,
  type ReadToolOptions,
  type ToolResultRequest,
  type ToolResultPage,
} from "./adapters/read-tool.js";
export { aiSdkMemoryTool, type MemoryCommand } from "./adapters/ai-sdk-memory-tool.js";
export type { MemoryToolOptions } from "./memory/tool-schema.js";
