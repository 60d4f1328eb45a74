// A chat's working memory as its chat and its user see it: `chat.memory` (the user's, or the
// chat's own where the chat was created with memoryScope "chat"), and the chat's own memory
// carried by its export (`chats.export(id)`) into the chat an import makes.
import { CtxloomError, fromStore } from "../errors.js";
import { Memory } from "../memory/memory.js";
import type { MemoryRecord } from "../memory/types.js";
import { EXPORT_VERSION, type ChatExport } from "../store/portable.js";
import type { ChatRecord } from "../store/types.js";
import type { LoomContext } from "./sync.js";

/**
 * The memory a chat's contexts carry: its own (memoryScope "chat"), else its user's; its writes say they came from the
 * chat.
 */
export function chatMemory(ctx: LoomContext, record: ChatRecord): Memory {
  const scope = record.options?.memoryScope ?? ctx.memoryScope ?? "user";
  return new Memory(ctx.memory, record.userId, scope === "chat" ? record.id : null, record.id);
}

/** `exported` (the chat's export) with the chat's own memory and its history, when it has one (version 3). */
export async function withOwnMemory(
  ctx: LoomContext,
  exported: ChatExport,
  userId: string,
  chatId: string,
): Promise<ChatExport> {
  const store = ctx.memory.cache?.store;
  if (!store) return exported;
  const records = await fromStore("reading the chat's memory", () => store.loadMemoryHistory(userId, chatId, {}));
  return records.length === 0 ? exported : { ...exported, version: EXPORT_VERSION, memory: records };
}

/**
 * Writes an export's memory (checked; none: nothing) as the chat `to`'s own, `from` becoming `to`
 * where a record names it; when that fails, deletes the chat (the import is all or nothing) and
 * throws. @throws INVALID_ARGUMENT when the store keeps no memory; the store's errors
 */
export async function importOwnMemory(
  ctx: LoomContext,
  userId: string,
  from: string | undefined,
  to: string,
  records: MemoryRecord[],
): Promise<void> {
  if (records.length === 0) return;
  try {
    const store = ctx.memory.cache?.store;
    if (!store) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `This chat export carries the chat's memory, and the store ${ctx.memory.storeName} keeps no memory; ` +
          "use a store of ctxloom's.",
      );
    }
    const renamed = records.map((r) => (r.chatId !== null && r.chatId === from ? { ...r, chatId: to } : r));
    const written = await fromStore("importing the chat's memory", () =>
      store.writeMemory({ userId, chatId: to, expected: 0, records: renamed }),
    );
    if (!written.ok)
      throw new CtxloomError(
        "MEMORY_CONFLICT",
        `The new chat ${to} had a memory already (revision ${written.revision}).`,
      );
  } catch (error) {
    // The store's delete takes what memory landed with the chat.
    await fromStore("undoing the import", () => ctx.store.deleteChat(userId, to)).catch(() => undefined);
    throw error;
  }
}
