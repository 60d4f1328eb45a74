// Open WebUI's chat export: an array of { id, title, chat: { history: { messages, currentId } } }
// where messages is a map of { id, parentId, childrenIds, role, content, timestamp }.
import type { Role } from "../../message.js";
import { partsText, placeholder } from "../parts.js";
import {
  asRecord,
  importError,
  str,
  toMillis,
  type FormatReader,
  type RawConversation,
  type RawNode,
} from "../types.js";

const ROLES: Record<string, Role> = { user: "user", assistant: "assistant", system: "system", tool: "tool" };

export const isOpenWebUI = (r: Record<string, unknown>) =>
  asRecord(asRecord(r.history)?.messages) !== undefined ||
  asRecord(asRecord(asRecord(r.chat)?.history)?.messages) !== undefined;

export function openwebuiReader(): FormatReader {
  return { add: (record, where) => [readConversation(record, where)], finish: () => [] };
}

function readConversation(record: unknown, where: string): RawConversation {
  const outer = asRecord(record) ?? {};
  const chat = asRecord(outer.chat) ?? outer;
  const history = asRecord(chat.history);
  const messages = asRecord(history?.messages);
  if (!history || !messages) throw importError(where, "an Open WebUI chat needs `history.messages`");
  const placeholders: Record<string, number> = {};
  const nodes: RawNode[] = [];
  for (const [key, value] of Object.entries(messages)) {
    const at = `${where}, message ${JSON.stringify(key)}`;
    const m = asRecord(value);
    if (!m) throw importError(at, "it is not an object");
    if ((str(m.id) ?? key) !== key) throw importError(at, `it carries another id, ${JSON.stringify(m.id)}`);
    const role = ROLES[String(m.role)];
    if (!role) throw importError(at, `its role ${JSON.stringify(m.role)} is none of user, assistant, system, tool`);
    for (const child of Array.isArray(m.childrenIds) ? m.childrenIds : []) {
      if (typeof child !== "string" || !(child in messages))
        throw importError(at, `its child ${JSON.stringify(child)} is missing`);
    }
    let content = partsText(m.content, placeholders, at);
    for (const file of Array.isArray(m.files) ? m.files : []) {
      const type = str(asRecord(file)?.type) ?? "file";
      content += (content ? "\n" : "") + placeholder(placeholders, type.includes("image") ? "image" : "file");
    }
    const node: RawNode = { key, parent: str(m.parentId) ?? null, role, content };
    const createdAt = toMillis(m.timestamp);
    if (createdAt !== undefined) node.createdAt = createdAt;
    nodes.push(node);
  }
  const params = asRecord(chat.params);
  const models = Array.isArray(chat.models) ? chat.models : [];
  return {
    where,
    sourceId: str(outer.id) ?? str(chat.id),
    title: str(outer.title) ?? str(chat.title) ?? "Untitled",
    sourceModel: str(models[0]),
    system: str(params?.system) ?? str(chat.system) ?? null,
    createdAt: toMillis(outer.created_at) ?? toMillis(chat.timestamp),
    updatedAt: toMillis(outer.updated_at),
    nodes,
    head: str(history.currentId) ?? nodes[nodes.length - 1]?.key ?? null,
    placeholders,
  };
}
