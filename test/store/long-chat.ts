// A long chat's messages for the tests of chunks of numbers (sql-numbers.test.ts, and in workerd
// do-store-ops.ts): every kind of message and field, branches, times that do and do not fit 32 bits apart.
import type { Message } from "../../src/index.js";

export const toolCall = (i: number) => ({
  id: `call_${i}`,
  type: "function" as const,
  function: { name: "look", arguments: `{"i":${i}}` },
});

const SUMMARY = 1500;
/** A new branch: from here on, ids whose parent is the message before the last (each a plain message under a plain one). */
const branches = (id: number) => id % 97 === 0 && id !== SUMMARY + 1 && ![3, 4].includes((id - 2) % 10);

/**
 * Message `id` of the long chat: a linear chat with branches, tool calls answered by tool results,
 * empty texts, names, content parts, a summary of a run, times a second apart and a few that are
 * not (a fraction, a clock set back).
 */
export function nthMessage(id: number): Message {
  const parentId = id === 0 ? null : id === SUMMARY + 1 || branches(id) ? id - 2 : id - 1; // (a summary is no parent; its own is that of the first message it covers)
  const m: Message = {
    id,
    parentId,
    role: id % 2 ? "assistant" : "user",
    content: `m${id} ${"x".repeat(id % 50)}`,
    priority: "normal",
    tokens: 3 + (id % 40),
    createdAt: 1_700_000_000_000 + id * 1000,
    kind: "message",
  };
  if (id === SUMMARY)
    return {
      ...m,
      parentId: 1399,
      role: "system",
      kind: "summary",
      covers: { first: 1400, last: 1410 },
      priority: "critical",
    };
  if (branches(id)) return m;
  if (id % 10 === 3) return { ...m, role: "assistant", content: "", toolCalls: [toolCall(id)] };
  if (id % 10 === 4 && !branches(id - 1)) return { ...m, role: "tool", toolCallId: `call_${id - 1}` };
  if (id % 211 === 0) return { ...m, name: "ann", priority: "high", createdAt: m.createdAt + 0.25 };
  if (id % 307 === 0) {
    return {
      ...m,
      role: "user",
      content: `m${id}`,
      createdAt: 5,
      parts: [
        { type: "text", text: `m${id}` },
        { type: "image", image: "https://example.com/a.png" },
      ],
    };
  }
  return m;
}

/** A message's row values for a messages table of the kit's schema (the columns of `MESSAGE_COLUMNS`), as an append writes them. */
export const MESSAGE_COLUMNS =
  "id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, covers_first, covers_last, created, parts";
export function messageRow(m: Message): unknown[] {
  return [
    m.id,
    m.parentId,
    ["system", "user", "assistant", "tool"].indexOf(m.role),
    m.content,
    ["low", "normal", "high", "critical"].indexOf(m.priority),
    m.tokens,
    m.name ?? null,
    m.toolCalls ? JSON.stringify(m.toolCalls) : null,
    m.toolCallId ?? null,
    m.kind === "summary" ? 1 : 0,
    m.covers?.first ?? null,
    m.covers?.last ?? null,
    m.createdAt,
    m.parts ? JSON.stringify(m.parts) : null,
  ];
}
