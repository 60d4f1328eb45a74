// Heap objects, counted from a heap snapshot's header (taking the snapshot collects first).
// Shared by bench/memory.ts and the heap-cost tests.
import { getHeapSnapshot } from "node:v8";

/** Objects on the V8 heap, read from a heap snapshot's header. */
export async function heapObjects(): Promise<number> {
  const stream = getHeapSnapshot();
  let head = "";
  for await (const chunk of stream) {
    head += String(chunk);
    const match = /"node_count":(\d+)/.exec(head);
    if (match) {
      stream.destroy();
      return Number(match[1]);
    }
  }
  throw new Error("no node_count in the heap snapshot");
}
