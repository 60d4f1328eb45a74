// Moving a ChatExport into and out of a Loom for the command. `chats.import(exp)` and
// `chat.export()` belong to the library; while they are not on this branch, these functions
// replay the export through the public API (create, checkout, append, edit) and read a chat
// back with get(). TEMPORARY: once both methods exist, the fallbacks go.
import { CtxloomError } from "../errors.js";
import { EXPORT_VERSION, type ChatExport, type ExportedMessage } from "../store/portable.js";
import type { Chat } from "../tree/chat.js";
import type { MessageInput } from "../tree/message.js";
import type { UserChats } from "../tree/user-chats.js";

type WithImport = { import?: (exp: ChatExport) => Promise<{ id: string }> };
type WithExport = { export?: () => ChatExport | Promise<ChatExport> };

/** Imports one chat: `chats.import(exp)` when the library has it, else a replay; a failed replay deletes its chat. */
export async function importChat(chats: UserChats, exp: ChatExport): Promise<{ id: string }> {
  const native = (chats as unknown as WithImport).import;
  if (typeof native === "function") return native.call(chats, exp);
  const chat = await chats.create({ title: exp.chat.title, model: exp.chat.model, ...(exp.chat.system === null ? {} : { system: exp.chat.system }) });
  try {
    for (const m of exp.messages) await replay(chat, m);
    if (exp.head !== null) await chat.checkout(exp.head);
  } catch (e) {
    await chats.delete(chat.id);
    throw e;
  }
  return { id: chat.id };
}

async function replay(chat: Chat, m: ExportedMessage): Promise<void> {
  let added;
  if (m.parentId === null && m.id > 0) {
    // A further root: the public API makes one only as an edit of a user root.
    if (m.role !== "user" || chat.get(0).role !== "user") {
      throw new CtxloomError("IMPORT_FAILED", `Message ${m.id} is a second root of role ${m.role}; this build can only add user roots. Nothing was imported.`);
    }
    added = await chat.edit(0, m.content);
  } else {
    if (m.parentId !== null && chat.head !== m.parentId) await chat.checkout(m.parentId);
    const input: MessageInput = { role: m.role, content: m.content };
    if (m.role !== "tool") input.priority = m.priority;
    if (m.name !== undefined) input.name = m.name;
    if (m.toolCalls) input.toolCalls = m.toolCalls;
    if (m.toolCallId !== undefined) input.toolCallId = m.toolCallId;
    added = await chat.append(input);
  }
  if (added.id !== m.id) throw new CtxloomError("IMPORT_FAILED", `Message ${m.id} came back as ${added.id}: the export's ids are not in order. Nothing was imported.`);
}

/** A chat as a ChatExport: `chat.export()` when the library has it, else read back message by message. */
export async function exportChat(chat: Chat): Promise<ChatExport> {
  const native = (chat as unknown as WithExport).export;
  if (typeof native === "function") return native.call(chat);
  const messages: ExportedMessage[] = [];
  for (let id = 0; id < chat.messageCount; id++) messages.push({ ...chat.get(id) });
  const record = chat.record();
  return {
    format: "ctxloom.chat",
    version: EXPORT_VERSION,
    chat: { id: chat.id, title: chat.title, model: chat.model, system: chat.system, createdAt: record.createdAt, updatedAt: chat.updatedAt },
    head: chat.head,
    messages,
  };
}
