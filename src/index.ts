// The public API of ctxloom: what users call, and the types of what they pass and get back.
// Exports only. Advanced pieces have their own entries: ctxloom/tokens (token counters),
// ctxloom/store (the kit for writing a Store). api/index.api.md is the report of this surface.
export { Loom, type LoomOptions, type LoomRecallOptions, type LoomStats } from "./chat/loom.js";
export type { EngineKind, EngineOptions, WasmSource } from "./engine/index.js";
export type { UserChats, CreateChatOptions } from "./chat/user-chats.js";
export type { PruneOptions, PruneReport } from "./chat/retention.js";
export type { ChatListPageOptions, ChatListPage } from "./chat/chat-list.js";
export type { Chat, ChatStats } from "./chat/chat.js";
export type { ChatView } from "./chat/chat-view.js";
export type { AppendOptions } from "./chat/append-key.js";
export type {
  CompactOptions,
  CompactionEvent,
  CompactionListener,
  ChatEvent,
  SummaryStartEvent,
  SummaryEndEvent,
  ClearEvent,
  SummaryReason,
} from "./chat/compaction.js";
export type { Message, MessageInput, MessageExtras, ToolCall, Role, Priority } from "./message.js";
export type {
  ContentPart,
  TextPart,
  ImagePart,
  FilePart,
  ReasoningPart,
  RedactedReasoningPart,
  CompactionPart,
  CompactionProvider,
} from "./parts.js";
export { CtxloomError, type ErrorCode } from "./errors.js";

// Contexts: what buildContext takes and returns, in each provider's format.
export type {
  BuildOptions,
  BuildRecallOptions,
  RecallScope,
  ContextWindow,
  Usage,
  ViewCount,
  ContextFormat,
  ContextWindowOf,
  ContextWindowFor,
  FormatOf,
  FormatMessages,
} from "./context/build.js";
export type {
  FormatOfMessages,
  StablePrefixOptions,
  RecallDegraded,
  ContextPressure,
  ProviderCounter,
  ProviderCountRequest,
  ProviderCount,
  MemoryScope,
  MemoryRevision,
} from "./context/types.js";
export type { ProviderCounterOptions } from "./context/provider-counter.js";
export { geminiCounter, type GeminiFetchLike, type GeminiCounterOptions } from "./adapters/gemini-count.js";
export type {
  OpenAIMessage,
  OpenAISystemMessage,
  OpenAIUserMessage,
  OpenAIAssistantMessage,
  OpenAIToolMessage,
  OpenAIToolCall,
  AnthropicMessage,
  AnthropicBlock,
  AnthropicCacheControl,
  ResponsesItem,
  ResponsesMessageItem,
  ResponsesFunctionCallItem,
  ResponsesFunctionCallOutputItem,
  ResponsesReasoningItem,
  ResponsesCompactionItem,
  OpenAIContentPart,
  ResponsesContentPart,
  AnthropicPartBlock,
  AnthropicToolResultBlock,
} from "./context/format.js";
export type { AnthropicImageType } from "./context/parts-format.js";
export type {
  ToolsInput,
  ToolDefinition,
  ChatCompletionsToolLike,
  ResponsesToolLike,
  AnthropicToolLike,
  UncountedToolLike,
  ToolSetLike,
  ToolSetTool,
} from "./tokens/tools.js";
export type { SlidingWindow, WindowOptions, WindowMessage, WindowStats } from "./context/sliding-window.js";
export { truncateToolResult, type TruncateOptions } from "./context/tool-result.js";
export type {
  ToolResultOptions,
  ToolResultTruncation,
  ToolResultClearing,
  ToolResultKeep,
  ClearTrigger,
} from "./models/tool-results.js";
export type { ReasoningTurns } from "./models/reasoning.js";

// Models, budgets and counts.
export {
  getModelProfile,
  registerModel,
  listModels,
  type ModelProfile,
  type ModelInput,
  type ModelRef,
  type LanguageModelRef,
  type ProfileOptions,
  type SizeClass,
  type HistoryLimits,
} from "./models/profiles.js";
export type { Encoding } from "./models/types.js";
export { budgetFor, type Budget, type BudgetSplit, type BudgetOptions } from "./models/budget.js";
export { countTokens, loadTokenizer, type CounterMode, type CountableInput } from "./models/counting.js";
export { registerEncoding, type OpenEncoding } from "./tokens/vocabulary.js";
export type { CalibrationState, CalibrationEntry, ScriptClass } from "./models/calibration.js";
export type { ChatCalibration } from "./chat/stats.js";
export type { BpeModuleSource } from "./chat/loom-options.js";
export type { TokenCounter } from "./tokens/types.js";
export type { CountableMessage } from "./tokens/chat.js";

// Recall and summaries.
export type { RecallStats } from "./recall/hub.js";
export type { EmbedQueueStats } from "./recall/embed-queue.js";
export type { ChatRecallOptions, RecalledMessage } from "./recall/scope.js";
export { hashingEmbedder, type Embedder, type HashingEmbedderOptions, type RecallReason } from "./recall/index.js";
export type { SummaryOptions } from "./summary/policy.js";
export { DEFAULT_SUMMARY_PROMPT } from "./summary/prompt.js";
export type { Summarizer, SummarizeRequest, SummaryFallback } from "./summary/run.js";
export type { SummarizedMessage } from "./summary/extractive.js";
export type { SummaryPresentation } from "./summary/present.js";

// Users' working memories.
export type { Memory, MemoryWriteInput, MemoryWriteBase } from "./memory/memory.js";
export type {
  MemoryDocument,
  MemoryDocumentBase,
  MemoryTextDocument,
  MemoryObjectDocument,
  MemorySnapshot,
  MemoryWritten,
  MemoryRecord,
  MemoryQuery,
  MemoryAuthor,
  MemoryKind,
  JsonObject,
  JsonSchema,
  WriteMemoryRequest,
  MemoryState,
  MemoryWriteResult,
} from "./memory/types.js";
export type { MemoryExport } from "./memory/export.js";

// Stores, exports and imports.
export { memoryStore } from "./store/memory.js";
export type {
  Store,
  Durability,
  AppendMessageRequest,
  SetHeadRequest,
  PutEmbeddingsRequest,
  ChatSummary,
  ChatOptions,
  ChatMetadata,
  JsonValue,
  ErasedUser,
  PrunedChat,
  ChatRecord,
  EmbedderInfo,
  EmbeddingRow,
  AppendResult,
  Awaitable,
  ChatPage,
  LoadedChat,
  PruneQuery,
  PruneBatch,
  MessageRedaction,
} from "./store/types.js";
export type { ChatExport, ExportedMessage } from "./store/portable.js";
export {
  importConversations,
  parseExport,
  parseExportStream,
  type ImportTarget,
  type ImportResult,
  type ImportFormat,
  type ImportOptions,
  type StreamOptions,
  type ImportProgress,
  type ConversationReport,
  type ParsedImport,
} from "./import/index.js";
