// The WebAssembly core as the wrapper sees it.

/** The exports of assembly/index.ts (raw bindings: numbers only). */
export interface CoreExports {
  memory: WebAssembly.Memory;
  visited: WebAssembly.Global;
  COUNTS_VISITS: WebAssembly.Global;
  setMemoryLimit(pages: number): void;
  memoryPages(): number;
  memoryUsed(): number;
  createTree(): number;
  dropTree(tree: number): void;
  append(tree: number, parent: number, tokens: number, role: number, priority: number, flags: number): number;
  setTokens(tree: number, id: number, tokens: number): void;
  reserveTree(tree: number, n: number): number;
  treeTable(): number;
  reserveOut(n: number): number;
  resetVisited(): void;
  walkInto(tree: number, head: number, max: number, out: number): number;
  walkSummarizedInto(tree: number, head: number, max: number, fromBelow: number, out: number): number;
  attachSummary(tree: number, first: number, last: number, tokens: number, priority: number, stack: number): number;
  leavesInto(tree: number, out: number): number;
  selectInto(tree: number, head: number, budget: number, maxMessages: number, out: number, room: number): number;
  selectResult(): number;
  evictedCount: WebAssembly.Global;
  createWindow(maxTokens: number): number;
  dropWindow(window: number): void;
  windowAdd(window: number, tokens: number, priority: number, unit: number): number;
  windowEvictUnit(window: number, unit: number): void;
  windowSlotsInto(window: number, out: number): number;
  windowTokens(window: number): number;
  windowCount(window: number): number;
}
