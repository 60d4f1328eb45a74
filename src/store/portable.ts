import type { Message } from "../message.js";
import type { MemoryRecord } from "../memory/types.js";
import type { ChatOptions } from "./types.js";

/**
 * The newest version of the portable chat format, which this release reads and writes: 2 added
 * a message's `parts` (images, files, reasoning), 3 the chat's own memory (`memory`). An export
 * is written in the oldest version that holds it (2 without a memory), so that older releases read it.
 */
export const EXPORT_VERSION = 3;
/** The version of an export without the chat's own memory. */
export const EXPORT_VERSION_PLAIN = 2;

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
  /** Always "ctxloom.chat": what tells an export from other JSON. */
  format: "ctxloom.chat";
  /** The export format's version (an import reads every version up to the current one). */
  version: number;
  /** The chat's own fields: its title, model, system prompt, times and settings. */
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
  /** The active branch's message, or null for an empty chat. */
  head: number | null;
  /** Every message of the tree, parents before children. */
  messages: ExportedMessage[];
  /**
   * The chat's own memory (a chat created with `memoryScope: "chat"`) with its whole history:
   * its records, revisions 1 on (version 3). `chats.export(id)` puts it there; an import makes
   * it the new chat's.
   */
  memory?: MemoryRecord[];
}

/** A message in a ChatExport: a Message whose token count may be left to the importer. */
export type ExportedMessage = Omit<Message, "tokens"> & { tokens?: number };
