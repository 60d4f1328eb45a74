// The public API of ctxloom. Exports only.
export { Loom, type LoomOptions } from "./tree/loom.js";
export { UserChats, type CreateChatOptions } from "./tree/user-chats.js";
export { Chat } from "./tree/chat.js";
export type { Message, MessageInput, ToolCall, Role, Priority } from "./tree/message.js";
export { CtxloomError, type ErrorCode } from "./errors.js";
export type { EngineKind, WasmSource } from "./engine/index.js";
export { memoryStore } from "./store/memory.js";
export type { Store, ChatRecord, ChatSummary, LoadedChat } from "./store/types.js";
export { heuristicCounter, messageTokens, type TokenCounter } from "./tokens/index.js";
