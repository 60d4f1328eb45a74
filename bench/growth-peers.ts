// A peer's growth for bench/growth.bench.ts: LangGraph's checkpointer. A graph of one node over
// MessagesAnnotation answers each user turn; MemorySaver keeps every checkpoint and pending
// write serialized, with LangGraph's own serializer. Their bytes after `turns`
// turns of the same texts (the first of each pair from the user, the next as the answer).
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { MemorySaver, MessagesAnnotation, StateGraph } from "@langchain/langgraph";

/** Bytes of every serialized value under `value` (MemorySaver's maps of tuples of Uint8Arrays). */
function bytesIn(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (typeof value === "string") return new TextEncoder().encode(value).length;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + bytesIn(v), 0);
  if (value !== null && typeof value === "object")
    return Object.values(value).reduce((n: number, v) => n + bytesIn(v), 0);
  return 0;
}

export async function langGraphBytes(texts: string[], turns: number): Promise<number> {
  let turn = 0;
  const graph = new StateGraph(MessagesAnnotation)
    .addNode("reply", () => ({ messages: [new AIMessage(texts[(2 * turn + 1) % texts.length]!)] }))
    .addEdge("__start__", "reply")
    .addEdge("reply", "__end__");
  const saver = new MemorySaver();
  const app = graph.compile({ checkpointer: saver });
  for (; turn < turns; turn++) {
    await app.invoke(
      { messages: [new HumanMessage(texts[(2 * turn) % texts.length]!)] },
      { configurable: { thread_id: "t" } },
    );
  }
  return bytesIn(saver.storage) + bytesIn(saver.writes);
}
