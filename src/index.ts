// The public API of ctxloom. Exports only.
export { Loom, DEFAULT_MAX_OPEN_CHATS, type LoomOptions, type LoomStats } from "./tree/loom.js";
export type { RecallStats } from "./recall/hub.js";
export { RECALL_HEADER, type ChatRecallOptions, type RecalledMessage } from "./recall/scope.js";
export { EMBED_BATCH } from "./recall/embed-queue.js";
export { hashingEmbedder, type Embedder, type HashingEmbedderOptions, type RecallReason } from "./recall/index.js";
export { UserChats, type CreateChatOptions } from "./tree/user-chats.js";
export { Chat, type ChatStats } from "./tree/chat.js";
export type { AppendOptions } from "./tree/append-key.js";
export { MAX_TOKENS, MAX_MESSAGES, type Message, type MessageInput, type ToolCall, type Role, type Priority } from "./message.js";
export type { ContentPart, TextPart, ImagePart, FilePart, ReasoningPart, RedactedReasoningPart } from "./parts.js";
export { CANCELLED_RESULT } from "./context/tool-units.js";
export type {
  BuildOptions, BuildRecallOptions, RecallScope, ContextWindow, Usage, ContextFormat, ContextWindowOf, ContextWindowFor, FormatOf, FormatMessages,
} from "./context/build.js";
export { SlidingWindow, type WindowOptions, type WindowMessage, type WindowStats } from "./context/sliding-window.js";
export { truncateToolResult, type ToolResultOptions, type ToolResultTruncation, type ToolResultKeep } from "./context/tool-result.js";
export type { StablePrefixOptions } from "./context/types.js";
export type {
  OpenAIMessage, OpenAISystemMessage, OpenAIUserMessage, OpenAIAssistantMessage, OpenAIToolMessage, OpenAIToolCall,
  AnthropicMessage, AnthropicBlock, AnthropicCacheControl,
  ResponsesItem, ResponsesMessageItem, ResponsesFunctionCallItem, ResponsesFunctionCallOutputItem,
  OpenAIContentPart, ResponsesContentPart, AnthropicPartBlock,
} from "./context/format.js";
export { anthropicImageTokens, openAIImageTokens, imageRuleFor, type ImageRule } from "./tokens/parts.js";
export { CtxloomError, type ErrorCode } from "./errors.js";
export type { EngineKind, WasmSource } from "./engine/index.js";
export {
  getModelProfile, registerModel, listModels, HISTORY_LIMITS,
  type ModelProfile, type ModelInput, type ModelRef, type LanguageModelRef, type ProfileOptions, type SizeClass, type HistoryLimits,
} from "./models/profiles.js";
export type { Encoding } from "./models/types.js";
export { budgetFor, DEFAULT_SPLIT, EFFECTIVE_FRACTION, type Budget, type BudgetSplit, type BudgetOptions } from "./models/budget.js";
export { countTokens, loadTokenizer, type CountingMode } from "./models/counting.js";
export {
  loadEncoding, wasmBpeCounter, heuristicCounter, messageTokens, type TokenCounter, type CountableMessage,
} from "./tokens/index.js";
export { memoryStore } from "./store/memory.js";
export { MessageColumns } from "./store/columns.js";
export { STORE_METHODS } from "./store/types.js";
export { EXPORT_VERSION, type ChatExport, type ExportedMessage } from "./store/portable.js";
export type {
  Store, ChatRecord, ChatSummary, ChatOptions, LoadedChat, AppendResult, EmbedderInfo, EmbeddingRow, Awaitable,
} from "./store/types.js";
export {
  importConversations, parseExport, parseExportStream, detectFormat, ImportParser, IMPORT_FORMATS,
  type ImportTarget, type ImportResult, type ImportFormat, type ImportOptions, type StreamOptions, type ImportProgress,
  type ConversationReport, type ParsedImport,
} from "./import/index.js";
export { DEFAULT_SUMMARY_POLICY, type SummaryOptions, type SummaryPolicy } from "./summary/policy.js";
export { DEFAULT_SUMMARY_PROMPT } from "./summary/prompt.js";
export type { Summarizer, SummarizeRequest, SummaryFallback } from "./summary/run.js";
export type { SummarizedMessage } from "./summary/extractive.js";
export { SUMMARY_PREFIX, SUMMARY_TOOL, type SummaryPresentation } from "./summary/present.js";
