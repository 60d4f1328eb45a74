// A user's erasure (`user(id).erase()`) and a prune (`loom.prune()`) through the Loom: the chats
// this Loom holds of them end first (the changes already called land, later calls throw
// CHAT_DELETED), then the store removes the rows, and recall forgets what it held in memory.
import { CtxloomError, checkInteger, checkOptions, describe, fromStore } from "../errors.js";
import type { ErasedUser, PruneBatch, PrunedChat, Store } from "../store/types.js";
import type { LoomContext } from "./sync.js";
import { forgetSystemTexts } from "../context/system-cost.js";
import { forgetStems } from "../recall/lexical-terms.js";

/** Options of `loom.prune()`: at least one of `idleFor` and `keepNewest`. */
export interface PruneOptions {
  /** Chats not written for this long, in ms (e.g. 90 days: 90 * 86_400_000), are removed. */
  idleFor?: number;
  /** Per user, only the newest `keepNewest` chats (most recently written first, as `list()` orders them) stay. */
  keepNewest?: number;
  /**
   * Chats removed per batch, each batch one store transaction, with a turn of the event loop
   * between batches so that a server keeps answering (1 to 10,000).
   * @default 25
   */
  batchSize?: number;
}

/** What `loom.prune()` removed. */
export interface PruneReport {
  /** Chats removed. */
  chats: number;
  /** Their messages removed. */
  messages: number;
  /** Each chat removed, batch by batch. */
  removed: PrunedChat[];
}

const PRUNE_KEYS = ["idleFor", "keepNewest", "batchSize"] as const;
/**
 * Chats a batch removes by default: small enough that a batch costs a server about what a request does
 * (bench/prune.bench.ts).
 */
const DEFAULT_BATCH = 25;

/** Ends this Loom's chat `chatId` of `userId`, if it holds it (the store is not written). */
export type DropOpen = (userId: string, chatId: string) => Promise<void>;

function storeMethod<K extends "eraseUser" | "pruneChats">(store: Store, name: K, what: string): NonNullable<Store[K]> {
  const method = store[name];
  if (typeof method !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The store ${describe(store.name)} cannot ${what} (it has no ${name} method); every store of ctxloom has one.`,
    );
  }
  return method.bind(store) as NonNullable<Store[K]>;
}

/** `user(id).erase()`: `dropOpen` ends the user's chats held here, then the store erases the user. */
export async function eraseUser(ctx: LoomContext, userId: string, dropAll: () => Promise<void>): Promise<ErasedUser> {
  const erase = storeMethod(ctx.store, "eraseUser", "erase a user");
  await dropAll();
  const erased = await fromStore("erasing the user", () => erase(userId));
  // A store of another kit whose erasure left the memories: deleted here (ctxloom's own answer false: none left).
  if (typeof ctx.store.deleteMemory === "function")
    await fromStore("erasing the user's memories", () => ctx.store.deleteMemory!(userId));
  ctx.memory.cache?.forget(userId);
  ctx.recall?.forgetUser(userId);
  forgetSystemTexts(); // counts kept by their text: the user's system prompts among them
  forgetStems(); // recall's stems of words: the user's among them
  /^/.exec(""); // V8 keeps the last text a regular expression matched (RegExp.input): not theirs
  if (!Number.isSafeInteger(erased?.chats) || !Number.isSafeInteger(erased?.messages)) {
    throw new CtxloomError(
      "STORE_CORRUPT",
      `The store answered ${describe(erased)} to eraseUser, not { chats, messages }.`,
    );
  }
  return { chats: erased.chats, messages: erased.messages };
}

/** `loom.prune(options)`: batch after batch until the store has gone through every user. */
export async function prune(ctx: LoomContext, options: PruneOptions, dropOpen: DropOpen): Promise<PruneReport> {
  const o = checkOptions<PruneOptions>(options, "prune(options)", PRUNE_KEYS);
  if (o.idleFor === undefined && o.keepNewest === undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "prune needs idleFor (ms since a chat was last written), keepNewest (chats kept per user), or both.",
    );
  }
  if (o.idleFor !== undefined && !(typeof o.idleFor === "number" && Number.isFinite(o.idleFor) && o.idleFor >= 0)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `idleFor must be a duration in ms (a number from 0); got ${describe(o.idleFor)}.`,
    );
  }
  if (o.keepNewest !== undefined) checkInteger(o.keepNewest, "keepNewest", 1);
  const limit = o.batchSize === undefined ? DEFAULT_BATCH : checkInteger(o.batchSize, "batchSize", 1, 10_000);
  const pruneChats = storeMethod(ctx.store, "pruneChats", "prune chats");
  const idleBefore = o.idleFor === undefined ? undefined : Date.now() - o.idleFor;
  const report: PruneReport = { chats: 0, messages: 0, removed: [] };
  for (let after: string | undefined; ; ) {
    ctx.checkOpen();
    const query = {
      limit,
      ...(idleBefore === undefined ? {} : { idleBefore }),
      ...(o.keepNewest === undefined ? {} : { keepNewest: o.keepNewest }),
    };
    const batch = checkBatch(
      await fromStore("pruning chats", () => pruneChats(after === undefined ? query : { ...query, after })),
    );
    for (const chat of batch.removed) {
      report.removed.push(chat);
      report.chats++;
      report.messages += chat.messageCount;
      await dropOpen(chat.userId, chat.chatId);
      ctx.recall?.forgetChat(chat.userId, chat.chatId);
      ctx.memory.cache?.forget(chat.userId, chat.chatId);
    }
    if (batch.next === null) return report;
    after = batch.next;
    await new Promise((resolve) => setTimeout(resolve, 0)); // the server's own work runs between batches
  }
}

function checkBatch(batch: PruneBatch): PruneBatch {
  const ok =
    batch !== null &&
    typeof batch === "object" &&
    Array.isArray(batch.removed) &&
    (batch.next === null || typeof batch.next === "string") &&
    batch.removed.every(
      (c) => typeof c?.userId === "string" && typeof c.chatId === "string" && Number.isSafeInteger(c.messageCount),
    );
  if (!ok)
    throw new CtxloomError(
      "STORE_CORRUPT",
      `The store answered ${describe(batch)} to pruneChats, not { removed, next }.`,
    );
  return batch;
}
