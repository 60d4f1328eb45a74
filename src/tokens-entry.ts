// The ctxloom/tokens entry point: the token counters themselves, for counting outside a chat
// (the main entry's countTokens and loadTokenizer count for a model by name). Exports only.
export type { TokenCounter, Encoding } from "./tokens/types.js";
export { loadEncoding } from "./tokens/exact.js";
export { wasmBpeCounter } from "./tokens/wasm-bpe.js";
export { heuristicCounter } from "./tokens/heuristic.js";
export { messageTokens, type CountableMessage } from "./tokens/chat.js";
export { anthropicImageTokens, openAIImageTokens, imageRuleFor, type ImageRule } from "./tokens/parts.js";
export { registerEncoding, type OpenEncoding } from "./tokens/vocabulary.js";
