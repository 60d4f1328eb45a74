// ctxloom/anthropic: Anthropic SDK messages and content blocks to chat messages. Exports
// only; nothing of `@anthropic-ai/sdk` is imported (its types match structurally). The
// output side is `buildContext({ format: "anthropic" })`.
export {
  fromAnthropicMessages,
  TOOL_ERROR_PREFIX,
  type AnthropicMessageLike,
  type AnthropicBlockLike,
} from "./adapters/anthropic.js";
export type { FromOptions, ReasoningMode } from "./adapters/common.js";
export {
  anthropicLoop,
  anthropicReadTool,
  type AnthropicLoop,
  type AnthropicLoopOptions,
  type AnthropicReadToolDefinition,
  type AnthropicToolUseLike,
} from "./adapters/anthropic-loop.js";
export type { ToolLoopOptions, ToolExecute, ToolResultContent } from "./adapters/tool-loop.js";
export {
  readToolResult,
  type ReadTool,
  type ReadToolOptions,
  type ToolResultRequest,
  type ToolResultPage,
} from "./adapters/read-tool.js";
export {
  anthropicCounter,
  type AnthropicCountClientLike,
  type AnthropicCountTool,
} from "./adapters/anthropic-count.js";
export {
  anthropicMemoryTool,
  type MemoryTool,
  type AnthropicMemoryToolDefinition,
  type AnthropicMemoryFunctionDefinition,
} from "./adapters/memory-tools.js";
export type { MemoryToolOptions } from "./memory/tool-schema.js";
