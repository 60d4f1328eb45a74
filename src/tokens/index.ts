// The tokens room: counters (exact BPE, heuristic) and the chat-format count of a message.
// Counting for a named model (counterFor, countTokens, loadTokenizer) is in models/counting.ts.
export type { TokenCounter, Encoding } from "./types.js";
export { heuristicCounter } from "./heuristic.js";
export { messageTokens, REPLY_PRIMING, TOKENS_PER_MESSAGE, TOKENS_PER_NAME, type CountableMessage } from "./chat.js";
export { loadEncoding } from "./exact.js";
export { provideBpeModule, wasmBpeCounter, loadedWasmCounter } from "./wasm-bpe.js";
export {
  loadExactCounter,
  useBpeSource,
  exactCounterState,
  type BpeSource,
  type ExactCounterState,
} from "./exact-default.js";
export { loadedEncoding } from "./exact.js";
export { anthropicImageTokens, imageRuleFor, openAIImageTokens, partTokens, type ImageRule } from "./parts.js";

export {
  registerEncoding,
  registeredEncoding,
  isOpenEncoding,
  OPEN_ENCODINGS,
  type OpenEncoding,
} from "./vocabulary.js";
