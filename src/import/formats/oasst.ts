// OpenAssistant: message trees ({ message_tree_id, prompt: { message_id, text, role, rank,
// replies: [...] } }, one a line in .jsonl) or flat messages with parent links
// ({ message_id | user_message_id, parent_id | parent_message_id, text, role }).
import type { Role } from "../../message.js";
import {
  asRecord,
  importError,
  str,
  titleFrom,
  toMillis,
  type FormatReader,
  type RawConversation,
  type RawNode,
} from "../types.js";

const ROLES: Record<string, Role> = { prompter: "user", assistant: "assistant" };

export const isOasstTree = (r: Record<string, unknown>) =>
  asRecord(r.prompt) !== undefined && ("message_tree_id" in r || "replies" in asRecord(r.prompt)!);
export const isOasstFlat = (r: Record<string, unknown>) =>
  (typeof r.message_id === "string" || typeof r.user_message_id === "string") &&
  (r.role === "prompter" || r.role === "assistant");

/**
 * The head of a tree: from the prompt, follow the best-ranked reply (the lowest `rank`, 0
 * being the best) while the replies carry ranks; among unranked replies, the last one.
 * Flat lists have no ranks: the head follows the last reply in the file's order.
 */
export function oasstReader(): FormatReader {
  const flat: { record: Record<string, unknown>; where: string }[] = [];
  return {
    add(record, where) {
      const r = asRecord(record);
      if (r && isOasstTree(r)) return [readTree(r, where)];
      if (r && isOasstFlat(r))
        return (void flat.push({ record: r, where: where.replace(/^conversation /, "item ") }), []);
      throw importError(
        where,
        "an OpenAssistant record is a tree { message_tree_id, prompt } or a message { message_id, parent_id, text, " +
          "role }",
      );
    },
    finish: () => groupFlat(flat),
  };
}

function node(m: Record<string, unknown>, key: string, parent: string | null, where: string): RawNode {
  const role = ROLES[String(m.role)];
  if (!role)
    throw importError(
      `${where}, message ${JSON.stringify(key)}`,
      `its role ${JSON.stringify(m.role)} is neither prompter nor assistant`,
    );
  if (typeof m.text !== "string")
    throw importError(`${where}, message ${JSON.stringify(key)}`, "its text is not a string");
  const out: RawNode = { key, parent, role, content: m.text };
  const createdAt = toMillis(m.created_date);
  if (createdAt !== undefined) out.createdAt = createdAt;
  return out;
}

function readTree(tree: Record<string, unknown>, where: string): RawConversation {
  const nodes: RawNode[] = [];
  let head: string | null = null;
  const visit = (value: unknown, parent: string | null, onHead: boolean): void => {
    const m = asRecord(value);
    const key = str(m?.message_id);
    if (!m || !key) throw importError(where, `a message under ${JSON.stringify(parent)} needs a message_id`);
    const given = m.parent_id === undefined ? parent : (m.parent_id as string | null);
    if (given !== parent)
      throw importError(
        `${where}, message ${JSON.stringify(key)}`,
        `its parent_id ${JSON.stringify(given)} is not the message it replies to, ${JSON.stringify(parent)}`,
      );
    nodes.push(node(m, key, parent, where));
    if (onHead) head = key;
    const replies = Array.isArray(m.replies) ? m.replies : [];
    const best = bestReply(replies);
    replies.forEach((r, i) => visit(r, key, onHead && i === best));
  };
  visit(tree.prompt, null, true);
  return {
    where,
    sourceId: str(tree.message_tree_id),
    title: titleFrom(nodes[0]?.content),
    sourceModel: undefined,
    system: null,
    createdAt: undefined,
    updatedAt: undefined,
    nodes,
    head,
    placeholders: {},
  };
}

/** The index of the reply with the lowest rank, or of the last reply when none is ranked. */
function bestReply(replies: unknown[]): number {
  let best = replies.length - 1;
  let bestRank = Infinity;
  replies.forEach((r, i) => {
    const rank = asRecord(r)?.rank;
    if (typeof rank === "number" && rank < bestRank) [best, bestRank] = [i, rank];
  });
  return best;
}

/** One conversation per root, in the order roots first appear; a message's parent must be in the file. */
function groupFlat(flat: { record: Record<string, unknown>; where: string }[]): RawConversation[] {
  const byKey = new Map<string, { node: RawNode; where: string }>();
  const order: RawNode[] = [];
  for (const { record, where } of flat) {
    const key = str(record.message_id) ?? str(record.user_message_id)!;
    const parent = str(record.parent_id) ?? str(record.parent_message_id) ?? null;
    if (byKey.has(key)) throw importError(where, `message ${JSON.stringify(key)} appears twice`);
    const n = node(record, key, parent, where);
    byKey.set(key, { node: n, where });
    order.push(n);
  }
  const rootOf = new Map<string, string>();
  const findRoot = (start: RawNode): string => {
    const path: string[] = [];
    let n = start;
    while (n.parent !== null && !rootOf.has(n.key)) {
      if (path.includes(n.key))
        throw importError(
          byKey.get(n.key)!.where,
          `messages ${path.map((k) => JSON.stringify(k)).join(" -> ")} are each other's parents (a cycle)`,
        );
      path.push(n.key);
      const up = byKey.get(n.parent);
      if (!up)
        throw importError(
          byKey.get(n.key)!.where,
          `message ${JSON.stringify(n.key)}: its parent ${JSON.stringify(n.parent)} is missing`,
        );
      n = up.node;
    }
    const root = rootOf.get(n.key) ?? n.key;
    for (const k of [...path, n.key]) rootOf.set(k, root);
    return root;
  };
  const groups = new Map<string, RawNode[]>();
  for (const n of order) {
    const root = findRoot(n);
    const list = groups.get(root) ?? [];
    if (list.length === 0) groups.set(root, list);
    list.push(n);
  }
  return [...groups].map(([root, nodes]) => {
    const kids = new Map<string, string[]>();
    for (const n of nodes) {
      if (n.parent === null) continue;
      const list = kids.get(n.parent);
      if (list) list.push(n.key);
      else kids.set(n.parent, [n.key]);
    }
    let head = root;
    while (kids.has(head)) head = kids.get(head)!.at(-1)!;
    return {
      where: byKey.get(root)!.where,
      sourceId: root,
      title: titleFrom(byKey.get(root)!.node.content),
      sourceModel: undefined,
      system: null,
      createdAt: undefined,
      updatedAt: undefined,
      nodes,
      head,
      placeholders: {},
    };
  });
}
