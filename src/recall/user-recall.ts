// One user's recall scope in a Loom (RecallHub holds one per user): the indexes of the chats of
// theirs it has seen under KeyMap keys, what was loaded and cleared, and the messages recall reads
// (which are embeddable, how the lexical channel indexes them, their vectors restored from a store
// and their exchanges).
import type { Engine } from "../engine/types.js";
import type { Message } from "../message.js";
import type { Embedder } from "./embedder.js";
import { ExchangeScope } from "./exchanges.js";
import { KeyMap } from "./keys.js";
import { RecallIndex, type StoredVector } from "./memory.js";
import type { MessageSource } from "./port.js";

/** One user's recall scope in a Loom: the vectors of all the chats of theirs it has seen, under KeyMap keys. */
export interface UserRecall {
  memory: RecallIndex;
  keys: KeyMap;
  /** Chats whose stored vectors were loaded (and missing ones queued), with the size they had then. */
  loaded: Map<string, number>;
  /** Per chat: ids up to this one were cleared from memory and are not embedded again. */
  cleared: Map<string, number>;
  /** Bumped by clear and reembed: queued work of an older epoch is dropped. */
  epoch: number;
  /** Other chats' messages read from the store for scope "user", with the update time they had. */
  others: Map<string, { updatedAt: number; list: Message[] }>;
  /** Each chat's messages grouped into exchanges, kept as it grows. */
  exchanges: Map<string, ExchangeScope>;
}

/** A user's empty scope. */
export function newUserRecall(engine: Engine, embedder: Embedder): UserRecall {
  return {
    memory: RecallIndex.create(engine, { embedder }),
    keys: new KeyMap(),
    loaded: new Map(),
    cleared: new Map(),
    epoch: 0,
    others: new Map(),
    exchanges: new Map(),
  };
}

/** An all-zero vector (a text of stop words only) has no direction: it is stored, never indexed. */
export const blank = (v: Float32Array) => v.every((x) => x === 0);

export const embeddable = (m: Message): m is Message & { role: "user" | "assistant" } =>
  (m.role === "user" || m.role === "assistant") && m.kind !== "summary" && m.content.trim() !== "";

/**
 * A message as the lexical channel indexes it: its text and name, after its parent (`prev`: its key, when it has one),
 * at its time.
 */
export const textOf = (key: number, m: Message & { role: "user" | "assistant" }, prev: number | undefined) => ({
  key,
  role: m.role,
  content: m.content,
  time: m.createdAt,
  ...(m.name === undefined ? {} : { name: m.name }),
  ...(prev === undefined ? {} : { prev }),
});

/**
 * Of a chat's rows loaded from the store: the vectors to restore into the user's indexes (embeddable messages not
 * indexed yet, not blank), and the ids that have a usable vector. Rows for no message of the chat, of another
 * dimension, or damaged (not finite) are left out, so those messages are embedded again.
 */
export function storedRows(
  u: UserRecall,
  chatId: string,
  rows: unknown,
  source: MessageSource,
  dimension: number,
): { restored: StoredVector[]; stored: Set<number> } {
  const restored: StoredVector[] = [];
  const stored = new Set<number>();
  for (const row of Array.isArray(rows) ? (rows as { messageId: number; vector: unknown }[]) : []) {
    const id = row?.messageId;
    if (
      !Number.isInteger(id) ||
      id < 0 ||
      id >= source.size ||
      !(row.vector instanceof Float32Array) ||
      row.vector.length !== dimension
    )
      continue;
    if (!row.vector.every(Number.isFinite)) continue; // a damaged vector is embedded again
    const m = source.message(id);
    const key = u.keys.key(chatId, id);
    stored.add(id);
    if (embeddable(m) && !u.memory.has(key) && !blank(row.vector))
      restored.push({ key, role: m.role, vector: row.vector });
  }
  return { restored, stored };
}

/**
 * One chat's messages grouped into exchanges under the user's keys (all branches): grouped once, then as the chat
 * grows.
 */
export function chatExchanges(u: UserRecall, chatId: string, source: MessageSource): ExchangeScope {
  let scope = u.exchanges.get(chatId);
  if (!scope || scope.size > source.size) u.exchanges.set(chatId, (scope = new ExchangeScope()));
  for (let id = scope.size; id < source.size; id++) {
    const m = source.message(id);
    scope.add({
      key: u.keys.key(chatId, id),
      parent: m.parentId === null ? -1 : u.keys.key(chatId, m.parentId),
      role: m.role,
      kind: m.kind,
    });
  }
  return scope;
}
