// The list's order of a user's chats (Store.listChats): most recently updated first, then
// created later first, then the greater id.
import type { ChatRecord } from "./types.js";

/**
 * The list's order: most recently updated first, then created later first, then the greater id (negative: `a` first).
 */
export function newestFirst(
  a: Pick<ChatRecord, "updatedAt" | "createdAt" | "id">,
  b: Pick<ChatRecord, "updatedAt" | "createdAt" | "id">,
): number {
  return b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
