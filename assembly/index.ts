// The core's exports. Everything here takes and returns numbers: strings never cross.

export { setMemoryLimit, memoryPages, memoryUsed } from "./alloc";
export {
  createTree, dropTree, reserveTree, append, setTokens, treeTable, reserveOut, resetVisited, visited, COUNTS_VISITS,
} from "./arena";
export { walkInto, walkSummarizedInto, leavesInto } from "./walk";
export { attachSummary } from "./summary";
export { selectInto, selectResult } from "./select";
export {
  createWindow, dropWindow, windowAdd, windowEvictUnit, windowSlotsInto, windowTokens, windowCount, evictedCount,
} from "./window";
export {
  createIndex, dropIndex, clearIndex, indexRows, indexTable, indexBlock, reserveRows, addRows, removeRow, readRow,
} from "./similarity";
export { topK, scoreRows, resultsAddress, reserveInput, readPass } from "./similarity-search";
export {
  lexicalCreate, lexicalDrop, lexicalAdd, lexicalRemove, lexicalDocs, lexicalHas,
  LEXICAL_OUT_OF_MEMORY, LEXICAL_BAD_DOC, LEXICAL_PRESENT, MAX_DOCS as LEXICAL_MAX_DOCS, MAX_TF as LEXICAL_MAX_TF,
} from "./lexical";
export { lexicalTerms, lexicalBytes } from "./lexical-stats";
export { lexicalQuery, lexicalInput, lexicalResults, lnBm25 } from "./lexical-query";
