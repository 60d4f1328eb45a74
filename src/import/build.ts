import { EXPORT_VERSION, type ChatExport, type ExportedMessage } from "../store/portable.js";
import { importError, type ConversationReport, type RawConversation, type RawNode } from "./types.js";

/**
 * Turns a conversation read from any format into a ChatExport, after checking it whole:
 * no id twice, every parent present, no cycle, the current node present. Then:
 * - Nodes marked `skip`, and messages with nothing to say (empty content and no tool calls),
 *   are left out; their children hang from their nearest kept ancestor, and a head on one
 *   moves up the same way (with no kept message above it, the head is the last message).
 * - Ids are renumbered 0..n-1 in creation order, a parent always before its children: the
 *   next id goes to the earliest-created message whose parent already has one (ties keep
 *   the file's order; a message without a time takes its parent's).
 * - A tool output must answer an open call of the assistant message above it. One that
 *   names its call must find it (else IMPORT_FAILED); one that does not is matched by tool
 *   name, or, answering no recorded call, is kept as a user message naming the tool.
 */
export function buildChat(
  conv: RawConversation,
  defaults: { model: string; now: number },
): { chat: ChatExport; report: ConversationReport } {
  const { nodes, where } = conv;
  const n = nodes.length;
  const index = new Map<string, number>();
  nodes.forEach((node, i) => {
    if (index.has(node.key)) throw importError(where, `message ${JSON.stringify(node.key)} appears twice`);
    index.set(node.key, i);
  });
  const parent = new Int32Array(n).fill(-1);
  const children: number[][] = Array.from({ length: n }, () => []);
  const roots: number[] = [];
  nodes.forEach((node, i) => {
    if (node.parent === null) return void roots.push(i);
    const p = index.get(node.parent);
    if (p === undefined)
      throw importError(
        where,
        `message ${JSON.stringify(node.key)}: its parent ${JSON.stringify(node.parent)} is missing`,
      );
    parent[i] = p;
    children[p]!.push(i);
  });
  if (conv.head !== null && !index.has(conv.head))
    throw importError(where, `the current message ${JSON.stringify(conv.head)} is missing`);

  // Creation order, parents first: a heap of the messages whose parent has an id.
  const base = conv.createdAt ?? defaults.now;
  const time = new Float64Array(n);
  const order: number[] = [];
  const heap = new Heap((a, b) => time[a]! - time[b]! || a - b);
  for (const r of roots) {
    time[r] = nodes[r]!.createdAt ?? base;
    heap.push(r);
  }
  while (heap.size > 0) {
    const i = heap.pop();
    order.push(i);
    for (const k of children[i]!) {
      time[k] = nodes[k]!.createdAt ?? time[i]!;
      heap.push(k);
    }
  }
  if (order.length < n) throw importError(where, cycleOf(nodes, parent, new Set(order)));

  // Keep, renumber, and map skipped nodes to their nearest kept ancestor.
  const kept = new Int32Array(n).fill(-1); // source index -> new id of itself or its nearest kept ancestor
  const messages: ExportedMessage[] = [];
  const skipped: Record<string, string[]> = {};
  const ids: Record<string, number> = {};
  for (const i of order) {
    const node = nodes[i]!;
    const up = parent[i]! < 0 ? -1 : kept[parent[i]!]!;
    const reason = node.skip ?? (node.content.trim().length === 0 && !node.toolCalls?.length ? "empty" : undefined);
    if (reason !== undefined) {
      (skipped[reason] ??= []).push(node.key);
      kept[i] = up;
      continue;
    }
    const id = messages.length;
    kept[i] = id;
    ids[node.key] = id;
    messages.push(toMessage(node, id, up < 0 ? null : up, Math.round(time[i]!)));
  }
  const toolResultsAsUser = matchToolResults(messages, nodes, order, kept, where);

  let head: number | null = conv.head === null ? null : kept[index.get(conv.head)!]!;
  if (head === -1) head = null;
  if (head === null && messages.length > 0) head = messages.length - 1;
  const hasChild = new Uint8Array(messages.length);
  for (const m of messages) if (m.parentId !== null) hasChild[m.parentId] = 1;
  let first = Infinity;
  let last = -Infinity;
  for (const m of messages) [first, last] = [Math.min(first, m.createdAt), Math.max(last, m.createdAt)];
  const createdAt = conv.createdAt ?? (messages.length ? first : defaults.now);
  const updatedAt = Math.max(conv.updatedAt ?? createdAt, createdAt, last);
  return {
    chat: {
      format: "ctxloom.chat",
      version: EXPORT_VERSION,
      chat: { title: conv.title, model: defaults.model, system: conv.system, createdAt, updatedAt },
      head,
      messages,
    },
    report: {
      where,
      sourceId: conv.sourceId,
      title: conv.title,
      sourceModel: conv.sourceModel,
      messages: messages.length,
      leaves: hasChild.reduce((s, h) => s + (h ? 0 : 1), 0),
      ids,
      skipped,
      placeholders: conv.placeholders,
      toolResultsAsUser,
    },
  };
}

function toMessage(node: RawNode, id: number, parentId: number | null, createdAt: number): ExportedMessage {
  const m: ExportedMessage = {
    id,
    parentId,
    role: node.role,
    content: node.content,
    priority: node.role === "system" ? "critical" : "normal",
    createdAt,
    kind: "message",
  };
  if (node.name !== undefined) m.name = node.name;
  if (node.toolCalls?.length) m.toolCalls = node.toolCalls;
  return m;
}

/** Gives every tool message the call it answers (see buildChat); returns how many became user messages. */
function matchToolResults(
  messages: ExportedMessage[],
  nodes: RawNode[],
  order: number[],
  kept: Int32Array,
  where: string,
): number {
  let asUser = 0;
  for (const i of order) {
    const node = nodes[i]!;
    if (node.role !== "tool" || node.skip !== undefined) continue;
    const id = kept[i]!;
    const m = messages[id];
    if (m === undefined || m.role !== "tool" || m.id !== id) continue; // left out as empty
    const answered = new Set<string>();
    let up = m.parentId;
    while (up !== null && messages[up]!.role === "tool") {
      answered.add(messages[up]!.toolCallId!);
      up = messages[up]!.parentId;
    }
    const open = (up === null ? [] : (messages[up]!.toolCalls ?? [])).filter((c) => !answered.has(c.id));
    if (node.toolCallId !== undefined) {
      if (!open.some((c) => c.id === node.toolCallId)) {
        throw importError(
          where,
          `tool message ${JSON.stringify(node.key)} answers call ${JSON.stringify(node.toolCallId)}, which the ` +
            `assistant message before it did not make (or was answered already)`,
        );
      }
      m.toolCallId = node.toolCallId;
      continue;
    }
    const call = open.find((c) => c.function.name === node.name) ?? (node.name === undefined ? open[0] : undefined);
    if (call) {
      m.toolCallId = call.id;
    } else {
      m.role = "user";
      asUser++;
    }
  }
  return asUser;
}

function cycleOf(nodes: RawNode[], parent: Int32Array, reached: Set<number>): string {
  let i = 0;
  while (reached.has(i)) i++;
  const seen: number[] = [];
  const at = new Map<number, number>();
  while (!at.has(i)) {
    at.set(i, seen.length);
    seen.push(i);
    i = parent[i]!;
  }
  const loop = seen.slice(at.get(i)!).map((k) => JSON.stringify(nodes[k]!.key));
  return `messages ${loop.join(" -> ")} -> ${loop[0]} are each other's parents (a cycle)`;
}

/** A binary min-heap of indices. */
class Heap {
  readonly #items: number[] = [];
  readonly less: (a: number, b: number) => number;

  constructor(less: (a: number, b: number) => number) {
    this.less = less;
  }

  get size(): number {
    return this.#items.length;
  }

  push(x: number): void {
    const a = this.#items;
    a.push(x);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.less(a[i]!, a[p]!) >= 0) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }

  pop(): number {
    const a = this.#items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!) < 0) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!) < 0) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}
