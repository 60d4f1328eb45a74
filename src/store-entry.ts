// The ctxloom/store entry point: what a Store is made of, for writing one of your own (a
// Store is any object with these methods; `Loom.open({ store })` checks them), and the
// in-memory store as the reference. The SQL stores have their own entries. Exports only.
export { memoryStore } from "./store/memory.js";
export { storeChecks, type StoreChecks } from "./store/arguments.js";
export type {
  Store,
  Durability,
  ChatRecord,
  ChatSummary,
  ChatOptions,
  LoadedChat,
  AppendResult,
  EmbedderInfo,
  EmbeddingRow,
  Awaitable,
  ChatPage,
  MessageRedaction,
  ChatMetadata,
  JsonValue,
  ErasedUser,
  PruneQuery,
  PruneBatch,
  PrunedChat,
  AppendMessageRequest,
  SetHeadRequest,
  PutEmbeddingsRequest,
} from "./store/types.js";
export type {
  MemoryRecord,
  MemoryKind,
  MemoryAuthor,
  MemoryState,
  MemoryQuery,
  MemoryWriteResult,
  WriteMemoryRequest,
} from "./memory/types.js";
