import type { Message } from "../message.js";
import type { ChatOptions } from "./types.js";

/**
 * The version of the portable chat format that this release writes (and the newest it
 * reads): 2 added a message's `parts` (images, files, reasoning); a version-1 file has none.
 */
export const EXPORT_VERSION = 2;

/**
 * A chat as portable, versioned JSON: what `chat.export()` returns and `chats.import()`
 * takes, and what every importer (ChatGPT, Open WebUI, LibreChat, OpenAssistant, ShareGPT,
 * JSONL) produces. It needs no store: it works on every runtime.
 *
 * Messages are in id order (ids 0..n-1, a parent before its children); `head` is the id of
 * the active branch's message (the export's current node), or null for an empty chat.
 * `tokens` may be left out: the importing Loom counts with the chat's model.
 */
export interface ChatExport {
  format: "ctxloom.chat";
  version: number;
  chat: {
    /** Kept when the target user has no chat of this id; a new id is made otherwise. */
    id?: string;
    title: string;
    model: string;
    system: string | null;
    createdAt: number;
    updatedAt: number;
    options?: ChatOptions;
  };
  head: number | null;
  messages: ExportedMessage[];
}

/** A message in a ChatExport: a Message whose token count may be left to the importer. */
export type ExportedMessage = Omit<Message, "tokens"> & { tokens?: number };
