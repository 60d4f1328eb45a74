import { fromStore } from "../errors.js";
import type { Message } from "../message.js";
import type { RecallScope } from "../context/types.js";
import type { ExchangeScope, PolicyScope } from "./exchanges.js";
import type { RecallHub } from "./hub.js";
import type { MessageSource, RecallChat } from "./port.js";

export { checkBuildRecall, checkChatRecall, type ChatRecallOptions, type RecalledMessage } from "./options.js";

/** What a recall scope holds: its exchanges (for the policy and the ranking) and a way back from keys to messages. */
export interface Scope {
  exchanges: PolicyScope;
  lookup(key: number): { chatId: string; message: Message } | undefined;
}

/** The path from the root to `head`, as message ids. O(depth). */
function pathIds(source: MessageSource, head: number): number[] {
  const ids: number[] = [];
  for (let id = head; id >= 0; ) {
    ids.push(id);
    const parent = source.message(id).parentId;
    id = parent === null ? -1 : parent;
  }
  return ids.reverse();
}

/** A chat's scope cut to one branch (the path to the head): what is off the path is out. O(depth) to make. */
function branchOf(scope: ExchangeScope, path: Set<number>): PolicyScope {
  const on = (key: number) => path.has(key);
  const newest: number[] = [];
  for (const key of [...path].reverse()) {
    const start = scope.exchangeOf(key);
    if (start >= 0 && newest[newest.length - 1] !== start) newest.push(start);
  }
  return {
    eligible: (key) => on(key) && scope.eligible(key),
    neighbours: (key) => (on(key) ? scope.neighbours(key).filter(on) : []),
    exchangeOf: (key) => (on(key) ? scope.exchangeOf(key) : -1),
    members: (start) => scope.members(start).filter(on),
    role: (key) => (on(key) ? scope.role(key) : undefined),
    newest: (n) => newest.slice(0, n),
    order: (key) => scope.order(key),
  };
}

/**
 * Several chats' scopes as one: the current chat's first for the newest exchanges, then the others, most recently
 * updated first.
 */
function unionOf(chats: readonly ExchangeScope[], chatOf: (key: number) => ExchangeScope | undefined): PolicyScope {
  const at = new Map(chats.map((c, i) => [c, i]));
  const span = 2 ** 31;
  return {
    eligible: (key) => chatOf(key)?.eligible(key) ?? false,
    neighbours: (key) => chatOf(key)?.neighbours(key) ?? [],
    exchangeOf: (key) => chatOf(key)?.exchangeOf(key) ?? -1,
    members: (start) => chatOf(start)?.members(start) ?? [],
    role: (key) => chatOf(key)?.role(key),
    newest(n) {
      const out: number[] = [];
      for (const c of chats) {
        if (out.length >= n) break;
        out.push(...c.newest(n - out.length));
      }
      return out;
    },
    // Older chats first: the current chat (first in `chats`) is the newest.
    order: (key) => {
      const c = chatOf(key);
      return c ? (chats.length - at.get(c)!) * span + c.order(key) : -1;
    },
  };
}

/**
 * Loads (once) what recall knows of the scope's chats (their vectors and texts, catching up
 * on what they gained since, queueing what has no vector), and gives the scope's exchanges.
 * O(messages new since the last recall), plus the path for "branch".
 */
export async function openScope(hub: RecallHub, chat: RecallChat, scope: RecallScope): Promise<Scope> {
  const store = hub.store;
  const sources = new Map<string, MessageSource>([[chat.chatId, chat.source]]);
  if (scope === "user") {
    const listed = await fromStore("listing chats", () => store.listChats(chat.userId));
    // Most recently updated first: their newest exchanges come before older chats'.
    const records = (Array.isArray(listed) ? [...listed] : []).sort(
      (a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
    for (const record of records) {
      if (record.id === chat.chatId) continue;
      // Another chat's messages are read from the store once, and again only when it changed.
      const cache = hub.user(chat.userId).others;
      let messages = cache.get(record.id);
      if (!messages || messages.updatedAt !== record.updatedAt || messages.list.length !== record.messageCount) {
        const loaded = await fromStore("loading a chat for recall", () => store.loadChat(chat.userId, record.id));
        if (!loaded || !Array.isArray(loaded.messages)) continue;
        messages = { updatedAt: record.updatedAt, list: loaded.messages };
        cache.set(record.id, messages);
      }
      const list = messages.list;
      sources.set(record.id, { size: list.length, message: (id) => list[id]! });
    }
  }
  for (const [chatId, source] of sources) await hub.ensureChat(chat.userId, chatId, source);
  const scopes = new Map<string, ExchangeScope>();
  for (const [chatId, source] of sources) scopes.set(chatId, hub.exchanges(chat.userId, chatId, source));
  const keys = hub.user(chat.userId).keys;
  const own = scopes.get(chat.chatId)!;
  let exchanges: PolicyScope = own;
  if (scope === "branch") {
    exchanges = branchOf(
      own,
      new Set(chat.head < 0 ? [] : pathIds(chat.source, chat.head).map((id) => keys.key(chat.chatId, id))),
    );
  } else if (scope === "user") {
    exchanges = unionOf([...scopes.values()], (key) => {
      const pair = keys.pair(key);
      return pair && scopes.get(pair.chat);
    });
  }
  return {
    exchanges,
    lookup(key) {
      const pair = keys.pair(key);
      const source = pair && sources.get(pair.chat);
      return pair && source ? { chatId: pair.chat, message: source.message(pair.id) } : undefined;
    },
  };
}
