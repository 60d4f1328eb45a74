// ctxloom/openai: OpenAI SDK objects (Chat Completions messages, Responses items) to chat
// messages, and a summarizer and an embedder of an OpenAI client. Nothing of the `openai`
// package is imported (its types and client match structurally), so this entry loads
// without it. The output side is `buildContext({ format })`.
export { fromOpenAIMessages, type OpenAIMessageLike, type OpenAICompletionLike } from "./adapters/openai.js";
export { fromResponseItems, type ResponsesItemLike } from "./adapters/responses.js";
export {
  openAIStream,
  fromChatCompletionChunks,
  fromResponseStreamEvents,
  CUT_MARK,
  type OpenAIStream,
  type OpenAIStreamOptions,
  type ChatCompletionChunkLike,
  type ResponseStreamEventLike,
} from "./adapters/openai-stream.js";
export {
  openAISummarizer,
  openAIEmbedder,
  type OpenAISummarizerOptions,
  type OpenAIEmbedderOptions,
  type OpenAIChatClientLike,
  type OpenAIEmbeddingsClientLike,
} from "./adapters/openai-hooks.js";
export type { FromOptions, ReasoningMode } from "./adapters/common.js";
export {
  openAILoop,
  openAIReadTool,
  type OpenAILoop,
  type OpenAILoopOptions,
  type OpenAIReadToolDefinition,
  type ResponsesReadToolDefinition,
  type OpenAIToolCallLike,
  type ResponseFunctionCallLike,
  type ResponseLike,
} from "./adapters/openai-loop.js";
export type { ToolLoopOptions, ToolExecute, ToolResultContent } from "./adapters/tool-loop.js";
export {
  readToolResult,
  type ReadTool,
  type ReadToolOptions,
  type ToolResultRequest,
  type ToolResultPage,
} from "./adapters/read-tool.js";
export {
  openAIMemoryTool,
  type MemoryTool,
  type OpenAIMemoryToolDefinition,
  type ResponsesMemoryToolDefinition,
} from "./adapters/memory-tools.js";
export type { MemoryToolOptions } from "./memory/tool-schema.js";
