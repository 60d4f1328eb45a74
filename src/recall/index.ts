// The recall room: embedders, embedding indexes over the engine, and the recall policy.
export { type Embedder, embedTexts, checkEmbedder } from "./embedder.js";
export { hashingEmbedder, type HashingEmbedderOptions } from "./hashing.js";
export { EmbeddingIndex, type EmbeddingIndexOptions, type SearchOptions, type Hit } from "./embedding-index.js";
export { KeyMap } from "./keys.js";
export {
  recallExchanges,
  checkRecallOptions,
  type RecallMessage,
  type RecallOptions,
  type RecallInput,
  type RecallResult,
  type RecalledExchange,
  type RecallReason,
} from "./policy.js";
export { RecallIndex, type RecallIndexOptions, type MemoryItem, type StoredVector } from "./memory.js";
