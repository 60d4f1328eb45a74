// The public API of ctxloom. Exports only.
export { Loom, type LoomOptions } from "./tree/loom.js";
export { UserChats, type CreateChatOptions } from "./tree/user-chats.js";
export { Chat, type ChatStats } from "./tree/chat.js";
export type { Message, MessageInput, ToolCall, Role, Priority } from "./tree/message.js";
export type { BuildOptions, ContextWindow, Usage } from "./context/build.js";
export { SlidingWindow, type WindowOptions, type WindowMessage, type WindowStats } from "./context/sliding-window.js";
export type { OpenAIMessage, AnthropicMessage, AnthropicBlock } from "./context/format.js";
export { CtxloomError, type ErrorCode } from "./errors.js";
export type { EngineKind, WasmSource } from "./engine/index.js";
export {
  getModelProfile, registerModel, listModels, HISTORY_LIMITS,
  type ModelProfile, type SizeClass, type HistoryLimits,
} from "./models/profiles.js";
export type { Encoding } from "./models/types.js";
export { budgetFor, DEFAULT_SPLIT, EFFECTIVE_FRACTION, type Budget, type BudgetSplit } from "./models/budget.js";
export {
  countTokens, loadTokenizer, loadEncoding, tiktokenCounter, wasmBpeCounter, heuristicCounter, messageTokens,
  type TokenCounter, type CountingMode, type CountableMessage,
} from "./tokens/index.js";
export { memoryStore } from "./store/memory.js";
export type {
  Store, ChatRecord, ChatSummary, ChatOptions, LoadedChat, AppendResult, EmbedderInfo, EmbeddingRow, Awaitable,
} from "./store/types.js";
