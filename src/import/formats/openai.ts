// OpenAI-format message lists: JSON Lines of { messages: [...] } (one chat a line, as in
// fine-tuning files), or one message { role, content } a line (one chat for the file).
import type { Role } from "../../message.js";
import { partsText, toolCallsOf } from "../parts.js";
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
  user: "user",
  assistant: "assistant",
  system: "system",
  developer: "system",
  tool: "tool",
  function: "tool",
};

export const isOpenAIChat = (r: Record<string, unknown>) =>
  Array.isArray(r.messages) && (r.messages.length === 0 || typeof asRecord(r.messages[0])?.role === "string");
export const isOpenAIMessage = (r: Record<string, unknown>) => typeof r.role === "string" && "content" in r;

/** Each list is linear: each message the reply to the one before; the head is the last. */
export function openaiReader(): FormatReader {
  const single: { record: unknown; where: string }[] = [];
  return {
    add(record, where) {
      const r = asRecord(record);
      if (r && isOpenAIChat(r)) return [readList(r.messages as unknown[], where, r)];
      if (r && isOpenAIMessage(r)) return (void single.push({ record: r, where }), []);
      throw importError(
        where,
        "an OpenAI-format record is { messages: [{ role, content }] } or one message { role, content }",
      );
    },
    finish: () =>
      single.length
        ? [
            readList(
              single.map((s) => s.record),
              single[0]!.where,
              {},
              single.map((s) => s.where),
            ),
          ]
        : [],
  };
}

function readList(list: unknown[], where: string, chat: Record<string, unknown>, wheres?: string[]): RawConversation {
  const placeholders: Record<string, number> = {};
  const nodes = list.map((value, i): RawNode => {
    const at = wheres ? wheres[i]! : `${where}, message ${i + 1}`;
    const m = asRecord(value);
    const role = ROLES[String(m?.role)];
    if (!m || !role)
      throw importError(at, `its role ${JSON.stringify(m?.role)} is none of ${Object.keys(ROLES).join(", ")}`);
    const node: RawNode = {
      key: String(i),
      parent: i === 0 ? null : String(i - 1),
      role,
      content: partsText(m.content, placeholders, at),
    };
    const name = str(m.name);
    if (name) node.name = name;
    const calls = toolCallsOf(m.tool_calls, at);
    if (calls?.length) {
      if (role !== "assistant") throw importError(at, "only an assistant message carries tool_calls");
      node.toolCalls = calls;
    }
    const callId = str(m.tool_call_id);
    if (role === "tool" && callId) node.toolCallId = callId;
    return node;
  });
  return {
    where,
    sourceId: str(chat.id),
    title: str(chat.title) ?? titleFrom(nodes.find((n) => n.role === "user")?.content),
    sourceModel: str(chat.model),
    system: null,
    createdAt: undefined,
    updatedAt: undefined,
    nodes,
    head: nodes.length ? String(nodes.length - 1) : null,
    placeholders,
  };
}
