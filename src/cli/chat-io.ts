// Moving a ChatExport into and out of a Loom for the command: the library's own bulk paths.
import type { ChatExport } from "../store/portable.js";
import type { Chat } from "../chat/chat.js";
import type { UserChats } from "../chat/user-chats.js";

/** Imports one chat as a new chat of `chats` (one bulk store write; nothing kept on failure). */
export async function importChat(chats: UserChats, exp: ChatExport): Promise<{ id: string }> {
  const chat = await chats.import(exp);
  return { id: chat.id };
}

/** A chat as a ChatExport. */
export async function exportChat(chat: Chat): Promise<ChatExport> {
  return chat.export();
}
