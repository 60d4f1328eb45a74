// Bringing a chat imported before up to date with a newer export of the same conversation:
// the export's messages that the chat lacks are added where they belong, nothing is removed.
import type { Message, MessageInput } from "../message.js";
import type { ChatExport, ExportedMessage } from "../store/portable.js";
import type { Chat } from "../chat/chat.js";

/** What a merge did: the export's ids mapped to the chat's, and how many messages it added. */
export interface Merged {
  /** Export message id -> the chat's id for it. */
  ids: number[];
  added: number;
}

/** The fields that make two messages the same message of a conversation (not its id, time or token count). */
const sameMessage = (m: Message, e: ExportedMessage): boolean =>
  m.role === e.role &&
  m.content === e.content &&
  m.kind === e.kind &&
  m.name === e.name &&
  m.toolCallId === e.toolCallId &&
  JSON.stringify(m.toolCalls ?? null) === JSON.stringify(e.toolCalls ?? null) &&
  JSON.stringify(m.parts ?? null) === JSON.stringify(e.parts ?? null);

/**
 * Plans the merge without writing: each export message is matched, parents first, to a
 * child of its parent's match (a root to a root) with the same role, text, name and tool
 * fields. Returns the matches (-1: new), or why the new messages cannot all be added through
 * the chat's operations (a summary, a first message other than a plain user turn).
 */
function plan(chat: Chat, exp: ChatExport): { ids: number[]; fresh: ExportedMessage[] } | { refused: string } {
  const ids = new Array<number>(exp.messages.length).fill(-1);
  const fresh: ExportedMessage[] = [];
  // A summary hangs from no parent's children: it is known by the run it covers and its text.
  const summaryKey = (first: number, last: number, content: string) => `${first}:${last}:${content}`;
  const summaries = new Map<string, number>();
  for (let id = 0; id < chat.messageCount; id++) {
    const m = chat.get(id);
    if (m.kind === "summary" && m.covers) summaries.set(summaryKey(m.covers.first, m.covers.last, m.content), id);
  }
  for (const e of exp.messages) {
    const parent = e.parentId === null ? null : ids[e.parentId]!;
    if (e.kind === "summary" && e.covers) {
      const match = summaries.get(summaryKey(ids[e.covers.first] ?? -1, ids[e.covers.last] ?? -1, e.content));
      if (match === undefined) return { refused: `its message ${e.id} is a summary the chat lacks` };
      ids[e.id] = match;
      continue;
    }
    if (parent !== -1) {
      const candidates = parent === null ? chat.roots() : chat.children(parent);
      const match = candidates.find((id) => sameMessage(chat.get(id), e));
      if (match !== undefined) {
        ids[e.id] = match;
        continue;
      }
    }
    if (e.kind === "summary") return { refused: `its message ${e.id} is a summary the chat lacks` };
    if (parent !== null && parent >= 0 && chat.get(parent).kind === "summary")
      return { refused: `its message ${e.id} answers a summary` };
    if (e.parentId === null && rootToEdit(chat, e) === undefined) {
      return { refused: `its message ${e.id} is a new first message` };
    }
    fresh.push(e);
  }
  return { ids, fresh };
}

/**
 * A first message is added as an edit of a first user turn (edit makes a sibling root): one
 * with the new message's priority and no name, for a plain user turn with no parts.
 */
const rootToEdit = (chat: Chat, e: ExportedMessage): number | undefined =>
  e.role !== "user" || e.name !== undefined || e.parts !== undefined
    ? undefined
    : chat.roots().find((r) => {
        const m = chat.get(r);
        return m.role === "user" && m.name === undefined && m.priority === e.priority;
      });

/** The export message as the chat's append takes it (a tool result keeps its call's priority). */
function input(e: ExportedMessage): MessageInput {
  const m: MessageInput = { role: e.role, content: e.parts ?? e.content };
  if (e.role !== "tool") m.priority = e.priority;
  if (e.name !== undefined) m.name = e.name;
  if (e.toolCalls !== undefined) m.toolCalls = e.toolCalls;
  if (e.toolCallId !== undefined) m.toolCallId = e.toolCallId;
  return m;
}

/**
 * Adds to `chat` the messages of `exp` (a newer export of the conversation it was imported
 * from) that it lacks, each under its parent's match, in the export's order; the head then
 * moves to the export's current message when anything was added. Messages the chat has
 * that the export lacks stay. Returns the refusal, planned before any write, when the new
 * messages cannot be added (see plan).
 */
export async function mergeInto(chat: Chat, exp: ChatExport): Promise<Merged | { refused: string }> {
  const planned = plan(chat, exp);
  if ("refused" in planned) return planned;
  const { ids, fresh } = planned;
  for (const e of fresh) {
    let added: Message;
    if (e.parentId === null) {
      added = await chat.edit(rootToEdit(chat, e)!, e.content);
    } else {
      await chat.checkout(ids[e.parentId]!);
      added = await chat.append(input(e));
    }
    ids[e.id] = added.id;
  }
  if (fresh.length > 0 && exp.head !== null) await chat.checkout(ids[exp.head]!);
  return { ids, added: fresh.length };
}
