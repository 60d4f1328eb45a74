// LibreChat's conversation export: { conversationId, title, options, messages } where messages
// is flat (parentMessageId links) or nested (`children`, with "recursive": true).
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

const NO_PARENT = "00000000-0000-0000-0000-000000000000";

export const isLibreChat = (r: Record<string, unknown>) =>
  Array.isArray(r.messages) &&
  (typeof r.conversationId === "string" || asRecord(r.messages[0])?.messageId !== undefined);

export function librechatReader(): FormatReader {
  return { add: (record, where) => [readConversation(record, where)], finish: () => [] };
}

/**
 * LibreChat records no current message: the head is the last message in the file's order
 * (messages are written as they were created; a nested export is read parents first, depth first).
 */
function readConversation(record: unknown, where: string): RawConversation {
  const conv = asRecord(record);
  if (!conv || !Array.isArray(conv.messages))
    throw importError(where, "a LibreChat conversation needs a `messages` array");
  const placeholders: Record<string, number> = {};
  const nodes: RawNode[] = [];
  const visit = (list: unknown[], nestedParent: string | null | undefined): void => {
    for (const value of list) {
      const m = asRecord(value);
      const key = str(m?.messageId);
      if (!m || !key) throw importError(where, `message ${nodes.length + 1} needs a messageId`);
      const at = `${where}, message ${JSON.stringify(key)}`;
      const given = m.parentMessageId === undefined ? undefined : (str(m.parentMessageId) ?? null);
      const parent = given === NO_PARENT ? null : given;
      if (nestedParent !== undefined && parent !== undefined && parent !== nestedParent) {
        throw importError(
          at,
          `its parentMessageId ${JSON.stringify(parent)} is not the message it is nested in, ` +
            `${JSON.stringify(nestedParent)}`,
        );
      }
      const role =
        typeof m.isCreatedByUser === "boolean"
          ? m.isCreatedByUser
            ? "user"
            : "assistant"
          : m.sender === "User"
            ? "user"
            : undefined;
      if (!role) throw importError(at, "it needs isCreatedByUser (or sender) to tell a user's message from an answer");
      let content =
        typeof m.text === "string" && m.text.length > 0 ? m.text : partsText(m.content ?? m.text, placeholders, at);
      for (const file of Array.isArray(m.files) ? m.files : []) {
        const type = str(asRecord(file)?.type) ?? "file";
        content += (content ? "\n" : "") + placeholder(placeholders, type.startsWith("image") ? "image" : "file");
      }
      const node: RawNode = { key, parent: parent ?? nestedParent ?? null, role, content };
      const createdAt = toMillis(m.createdAt);
      if (createdAt !== undefined) node.createdAt = createdAt;
      nodes.push(node);
      if (Array.isArray(m.children)) visit(m.children, key);
    }
  };
  visit(conv.messages, conv.recursive === true ? null : undefined);
  const options = asRecord(conv.options);
  return {
    where,
    sourceId: str(conv.conversationId),
    title: str(conv.title) ?? "Untitled",
    sourceModel: str(options?.model) ?? str(conv.model),
    system: str(options?.promptPrefix) ?? null,
    createdAt: toMillis(conv.createdAt),
    updatedAt: toMillis(conv.updatedAt),
    nodes,
    head: nodes[nodes.length - 1]?.key ?? null,
    placeholders,
  };
}
