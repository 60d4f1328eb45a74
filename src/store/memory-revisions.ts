// The working memories of the in-process store (memoryStore()): each memory's records in
// revision order and its newest record by path, copied in and out as the chats are. Arguments
// are checked by the policy every store runs (memory/checks.ts).
import {
  checkLoad,
  checkMemoryIds,
  checkQuery,
  checkWrite,
  copyRecord,
  queried,
  recordOrder,
} from "../memory/checks.js";
import type { MemoryRecord, MemoryStore, WriteMemoryRequest } from "../memory/types.js";
import { unknownChat } from "./checks.js";
import { checkRequest } from "./call-checks.js";

interface Kept {
  records: MemoryRecord[];
  latest: Map<string, MemoryRecord>;
}

/** A user's memories: their own ("") and each chat's (its id). */
type UserMemories = Map<string, Kept>;

/**
 * The memory methods of a store in this process; `hasChat` says whether the user has a chat
 * (a chat's memory needs one: UNKNOWN_CHAT otherwise).
 */
export function memoryRevisions(
  where: string,
  hasChat: (userId: string, chatId: string) => boolean,
): MemoryStore & { deleteChatMemory(userId: string, chatId: string): void } {
  const users = new Map<string, UserMemories>();
  const find = (userId: string, chatId: string | null): Kept | undefined => users.get(userId)?.get(chatId ?? "");
  const owned = (userId: string, chatId: string | null): void => {
    if (chatId !== null && !hasChat(userId, chatId)) throw unknownChat(where, userId, chatId);
  };
  return {
    loadMemory(userId, chatId, known) {
      checkLoad(userId, chatId, known);
      owned(userId, chatId);
      const kept = find(userId, chatId);
      const newest = kept?.records[kept.records.length - 1];
      const [revision, at] = newest ? [newest.revision, newest.at] : [0, 0];
      if (revision === known) return { revision, at };
      const records = kept ? [...kept.latest.values()].map(copyRecord).sort((a, b) => (a.path < b.path ? -1 : 1)) : [];
      return { revision, at, records };
    },
    loadMemoryHistory(userId, chatId, query) {
      const q = checkQuery(userId, chatId, query);
      owned(userId, chatId);
      return queried(find(userId, chatId)?.records ?? [], q);
    },
    writeMemory(request) {
      const { userId, chatId, expected, records } = checkRequest<WriteMemoryRequest>(request, "writeMemory");
      checkWrite(userId, chatId, expected, records);
      owned(userId, chatId);
      const kept = find(userId, chatId);
      const revision = kept ? kept.records[kept.records.length - 1]!.revision : 0;
      if (revision !== expected) return { ok: false, revision };
      const copies = records.map(copyRecord).sort(recordOrder);
      let user = users.get(userId);
      if (!user) users.set(userId, (user = new Map()));
      const into: Kept = kept ?? { records: [], latest: new Map() };
      for (const r of copies) {
        into.records.push(r);
        into.latest.set(r.path, r);
      }
      user.set(chatId ?? "", into);
      return { ok: true };
    },
    deleteMemory(userId, chatId) {
      checkMemoryIds(userId, chatId, true);
      const user = users.get(userId);
      if (!user) return false;
      if (chatId === undefined) {
        users.delete(userId);
        return user.size > 0;
      }
      return user.delete(chatId ?? "");
    },
    deleteChatMemory(userId, chatId) {
      users.get(userId)?.delete(chatId);
    },
  };
}
