// ShareGPT: one linear conversation per record, { conversations: [{ from, value }] }
// (also `conversation` or `items`), from one of human, gpt, system, tool, function_call...
import type { Role } from "../../message.js";
import {
  asRecord,
  importError,
  str,
  titleFrom,
  type FormatReader,
  type RawConversation,
  type RawNode,
} from "../types.js";

const ROLES: Record<string, Role> = {
  human: "user",
  user: "user",
  gpt: "assistant",
  assistant: "assistant",
  chatgpt: "assistant",
  bard: "assistant",
  bing: "assistant",
  model: "assistant",
  system: "system",
  tool: "tool",
  observation: "tool",
  function_response: "tool",
  function_call: "assistant",
};

const turnsOf = (r: Record<string, unknown>): unknown[] | undefined =>
  [r.conversations, r.conversation, r.items].find((v) => Array.isArray(v)) as unknown[] | undefined;

export const isShareGPT = (r: Record<string, unknown>) => {
  const turns = turnsOf(r);
  return turns !== undefined && (turns.length === 0 || asRecord(turns[0])?.from !== undefined);
};

export function sharegptReader(): FormatReader {
  return { add: (record, where) => [readConversation(record, where)], finish: () => [] };
}

/** A linear chat: each turn the reply to the one before; the head is the last turn. */
function readConversation(record: unknown, where: string): RawConversation {
  const conv = asRecord(record);
  const turns = conv && turnsOf(conv);
  if (!conv || !turns)
    throw importError(where, "a ShareGPT conversation needs a `conversations` array of { from, value }");
  const nodes: RawNode[] = [];
  turns.forEach((value, i) => {
    const at = `${where}, turn ${i + 1}`;
    const t = asRecord(value);
    const from = String(t?.from ?? t?.role);
    const role = ROLES[from];
    if (!t || !role)
      throw importError(at, `its "from" ${JSON.stringify(t?.from)} is none of ${Object.keys(ROLES).join(", ")}`);
    const text = t.value ?? t.content;
    if (typeof text !== "string") throw importError(at, "its value is not a string");
    const node: RawNode = { key: String(i), parent: i === 0 ? null : String(i - 1), role, content: text };
    if (from === "function_call") {
      let call: Record<string, unknown> | undefined;
      try {
        call = asRecord(JSON.parse(text));
      } catch {
        call = undefined;
      }
      const name = str(call?.name);
      if (!call || !name) throw importError(at, "a function_call's value must be JSON { name, arguments }");
      const args = call.arguments;
      node.toolCalls = [
        {
          id: `call_${i}`,
          type: "function",
          function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) },
        },
      ];
      node.content = "";
    }
    nodes.push(node);
  });
  return {
    where,
    sourceId: str(conv.id),
    title: str(conv.title) ?? titleFrom(nodes.find((n) => n.role === "user")?.content),
    sourceModel: str(conv.model),
    system: str(conv.system) ?? null,
    createdAt: undefined,
    updatedAt: undefined,
    nodes,
    head: nodes.length ? String(nodes.length - 1) : null,
    placeholders: {},
  };
}
