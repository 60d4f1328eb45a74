// ChatGPT's conversations.json: an array of conversations, each a `mapping` of nodes
// { id, message | null, parent, children } and the `current_node` the user last saw.
import { MAX_ARGUMENT_DEPTH, nestsDeeper, type Role } from "../../message.js";
import { placeholder } from "../parts.js";
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
/** Content types that hold no conversation text: kept out, and reported by reason. */
const LEFT_OUT: Record<string, string> = {
  thoughts: "reasoning",
  reasoning_recap: "reasoning",
  user_editable_context: "custom instructions",
  model_editable_context: "memory",
};

export const isChatGPT = (r: Record<string, unknown>) => asRecord(r.mapping) !== undefined;

export function chatgptReader(): FormatReader {
  return { add: (record, where) => [readConversation(record, where)], finish: () => [] };
}

function readConversation(record: unknown, where: string): RawConversation {
  const conv = asRecord(record);
  const mapping = asRecord(conv?.mapping);
  if (!conv || !mapping) throw importError(where, "a ChatGPT conversation needs a `mapping` object");
  const placeholders: Record<string, number> = {};
  const nodes: RawNode[] = [];
  for (const [key, value] of Object.entries(mapping)) {
    const at = `${where}, node ${JSON.stringify(key)}`;
    const node = asRecord(value);
    if (!node) throw importError(at, "it is not an object");
    const id = str(node.id) ?? key;
    if (id !== key) throw importError(at, `it carries another id, ${JSON.stringify(id)}`);
    for (const child of Array.isArray(node.children) ? node.children : []) {
      if (typeof child !== "string" || !(child in mapping))
        throw importError(at, `its child ${JSON.stringify(child)} is missing`);
    }
    const parent = node.parent === null || node.parent === undefined ? null : String(node.parent);
    nodes.push(readNode(key, parent, node.message, placeholders, at));
  }
  const head = str(conv.current_node) ?? null;
  return {
    where,
    sourceId: str(conv.conversation_id) ?? str(conv.id),
    title: str(conv.title) ?? "Untitled",
    sourceModel: str(conv.default_model_slug),
    system: null,
    createdAt: toMillis(conv.create_time),
    updatedAt: toMillis(conv.update_time),
    nodes,
    head: head ?? lastLeaf(nodes),
    placeholders,
  };
}

function readNode(
  key: string,
  parent: string | null,
  value: unknown,
  counts: Record<string, number>,
  where: string,
): RawNode {
  if (value === null || value === undefined) return { key, parent, role: "system", content: "", skip: "no message" };
  const message = asRecord(value);
  const author = asRecord(message?.author);
  if (!message || !author) throw importError(where, "its message needs an `author`");
  const role = ROLES[String(author.role)];
  if (!role)
    throw importError(
      where,
      `its author's role ${JSON.stringify(author.role)} is none of user, assistant, system, tool`,
    );
  const node: RawNode = { key, parent, role, content: "" };
  const name = str(author.name);
  if (name) node.name = toolName(name); // a tool's, on its results: the call's name, as below
  const createdAt = toMillis(message.create_time);
  if (createdAt !== undefined) node.createdAt = createdAt;
  if (asRecord(message.metadata)?.is_visually_hidden_from_conversation === true) node.skip = "hidden";
  const content = asRecord(message.content) ?? {};
  const type = str(content.content_type) ?? "text";
  if (LEFT_OUT[type]) node.skip ??= LEFT_OUT[type];
  else node.content = contentText(type, content, counts, where);
  const recipient = str(message.recipient);
  if (role === "assistant" && recipient && recipient !== "all") {
    // A call to a tool (python, browser, dalle...): its text is the call's arguments.
    node.toolCalls = [
      {
        id: `call_${key}`,
        type: "function",
        function: { name: toolName(recipient), arguments: jsonArguments(node.content) },
      },
    ];
    node.content = "";
  }
  return node;
}

/**
 * ChatGPT's tool names ("dalle.text2im", "canmore.create_textdoc") as providers take names: other characters become
 * "_".
 */
const toolName = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);

/**
 * A call's text as the JSON arguments a call carries: JSON as it is (dalle.text2im sends
 * JSON), other text (python's code, browser's commands) as a JSON string holding it.
 */
function jsonArguments(text: string): string {
  try {
    JSON.parse(text);
    if (!nestsDeeper(text, MAX_ARGUMENT_DEPTH)) return text;
  } catch {
    // not JSON: a string of it below
  }
  return JSON.stringify(text);
}

function contentText(
  type: string,
  content: Record<string, unknown>,
  counts: Record<string, number>,
  where: string,
): string {
  if (type === "tether_quote") return [str(content.title), str(content.text)].filter(Boolean).join("\n");
  if (type === "tether_browsing_display") return typeof content.result === "string" ? content.result : "";
  if (typeof content.text === "string") return content.text; // code, execution_output, system_error
  if (!Array.isArray(content.parts)) return placeholder(counts, type);
  return content.parts
    .map((part: unknown) => {
      if (typeof part === "string") return part;
      const p = asRecord(part);
      if (!p) throw importError(where, `a part of its content is ${part === null ? "null" : typeof part}`);
      if (typeof p.text === "string") return p.text; // audio_transcription
      const kind = str(p.content_type) ?? "part";
      return placeholder(counts, kind.includes("image") ? "image" : kind.includes("audio") ? "audio" : kind);
    })
    .join("\n");
}

/** Without a current node: the last leaf in the file's order. */
function lastLeaf(nodes: RawNode[]): string | null {
  const parents = new Set(nodes.map((n) => n.parent));
  for (let i = nodes.length - 1; i >= 0; i--) if (!parents.has(nodes[i]!.key)) return nodes[i]!.key;
  return null;
}
