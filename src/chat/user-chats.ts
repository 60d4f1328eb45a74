/**
 * One user's list of chats (UserChats): its memory, listing and paging, opening, deleting and erasing, and recall's
 * clears. Making a chat (create, preflight, import) lives in new-chats.ts; the open chats' cache in chat-cache.ts.
 */
import { CtxloomError, describe, fromStore } from "../errors.js";
import type { MessageInput } from "../message.js";
import type { ChatExport } from "../store/portable.js";
import type { ChatSummary, ErasedUser } from "../store/types.js";
import { Chat } from "./chat.js";
import { currentRecord, modelOf } from "./chat-record.js";
import { heldOf, restoreNodes, type LoomContext } from "./sync.js";
import {
  chatRecords,
  checkChatId,
  pageFrom,
  pageOf,
  summaryOf,
  unknownChat,
  type ChatListPage,
  type ChatListPageOptions,
} from "./chat-list.js";
import type { CreateChatOptions } from "./create-options.js";
import { eraseUser } from "./retention.js";
import type { BuildOptions } from "../context/types.js";
import { Memory } from "../memory/memory.js";
import { withOwnMemory } from "./chat-memory.js";
import { openKey, type ChatCache } from "./chat-cache.js";
import { createChat, importChat, preflightCreate } from "./new-chats.js";

export type { CreateChatOptions } from "./create-options.js";

/** One user's list of chats. Get it from `loom.user(id)`. */
export class UserChats {
  /** The user whose chats these are. */
  readonly userId: string;
  readonly #ctx: LoomContext;
  readonly #open: ChatCache;

  /** @internal */
  constructor(ctx: LoomContext, open: ChatCache, userId: string) {
    this.#ctx = ctx;
    this.#open = open;
    this.userId = userId;
  }

  /** The user's memory, shared by their chats and carried by their contexts (see Memory). Cheap: a handle. */
  get memory(): Memory {
    this.#ctx.checkOpen();
    return new Memory(this.#ctx.memory, this.userId, null, null);
  }

  /**
   * `chat.export()` of a chat, with its own memory and history when it has one (what `import` takes). @throws
   * UNKNOWN_CHAT, STORE_FAILED
   */
  async export(chatId: string): Promise<ChatExport> {
    const chat = await this.open(chatId);
    return withOwnMemory(this.#ctx, chat.export(), this.userId, chat.id);
  }

  /**
   * Creates an empty chat and returns it, open.
   * @throws INVALID_ARGUMENT for a non-string title, model or system prompt, a bad id or metadata, or an unknown
   *   option; CHAT_EXISTS when the user has a chat of the id given
   */
  async create(options?: CreateChatOptions): Promise<Chat> {
    return createChat(this.#ctx, this.#open, this.userId, options);
  }

  /**
   * @internal As `chat.preflight(inputs, build)` for the chat `create(options)` would make (its
   * model, system prompt, budget and history limits), creating nothing.
   */
  async preflight(
    options: CreateChatOptions | undefined,
    inputs: readonly MessageInput[],
    build: BuildOptions | undefined,
  ): Promise<void> {
    return preflightCreate(this.#ctx, options, inputs, build);
  }

  /**
   * Imports a chat exported by `chat.export()` or `chats.export(id)` (or made by an importer) as a
   * new chat of this user (with the chat's own memory, when the export carries it), in one store transaction: checked
   * whole first (a bad file, or one of a newer version, imports nothing and says what is wrong), tokens counted with
   * the chat's model where left out, the tree built once. Keeps the export's chat id unless this user has it.
   * @throws INVALID_ARGUMENT naming what is wrong; UNKNOWN_MODEL; STORE_FAILED
   */
  async import(data: ChatExport | string): Promise<Chat> {
    return importChat(this.#ctx, this.#open, this.userId, data);
  }

  /**
   * Every chat of the user, most recently active first (by `updatedAt`: an append, a checkout).
   * Reads records only: no chat is loaded. For a page at a time, `page({ limit, after })`.
   * @throws INVALID_ARGUMENT when given an argument
   */
  async list(): Promise<ChatSummary[]>;
  async list(...args: unknown[]): Promise<ChatSummary[]> {
    this.#ctx.checkOpen();
    if (args.length > 0) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `list() takes no argument and returns every chat; got ${describe(args[0])}. For one page, call page({ ` +
          `limit, after }).`,
      );
    }
    return (await chatRecords(this.#ctx.store, this.userId)).map(summaryOf);
  }

  /**
   * One page of the user's chats, most recently active first: at most `limit` (1 to 1000), from
   * `after` (the `cursor` of the previous page; left out for the first), and the cursor of the
   * next page (null after the last). Stores with an index read the page alone. A chat active
   * while a client pages moves to the top and may be seen twice or not at all, as with any list
   * ordered by activity.
   * @throws INVALID_ARGUMENT for a missing or bad limit, a cursor no page gave, or an unknown option
   */
  async page(options: ChatListPageOptions): Promise<ChatListPage> {
    this.#ctx.checkOpen();
    const paged = pageOf(options);
    return pageFrom(await chatRecords(this.#ctx.store, this.userId, paged.page), paged.page, paged.limit);
  }

  /**
   * The chat with this id, loaded from the store on first use and kept in memory after
   * (up to the Loom's maxOpenChats, least recently used first out).
   * @throws UNKNOWN_CHAT when this user has no such chat; STORE_CORRUPT when it cannot be read back;
   *   UNKNOWN_MODEL when it counts with a profile's own counter that is not registered
   */
  async open(chatId: string): Promise<Chat> {
    this.#ctx.checkOpen();
    checkChatId(chatId);
    const key = openKey(this.userId, chatId);
    const cached = this.#open.get(key);
    if (cached) {
      this.#open.set(key, cached); // most recently used
      return cached;
    }
    const loading = (async () => {
      const loaded = await fromStore("loading the chat", () => this.#ctx.store.loadChat(this.userId, chatId));
      if (!loaded) throw unknownChat(this.userId, chatId);
      if (
        loaded.chat === null ||
        typeof loaded.chat !== "object" ||
        loaded.chat.id !== chatId ||
        loaded.chat.userId !== this.userId
      ) {
        throw new CtxloomError(
          "STORE_CORRUPT",
          `The store handed back ${describe(loaded.chat)} as the record of chat ${describe(chatId)}.`,
        );
      }
      const record = currentRecord(loaded.chat, this.#ctx.summaries);
      const { profile, counter } = await this.#ctx.prepare(modelOf(record));
      this.#ctx.checkOpen();
      const { nodes } = restoreNodes(this.#ctx, record, heldOf(loaded));
      return new Chat(this.#ctx, record, nodes, profile, counter, this.#open);
    })();
    this.#open.set(key, loading);
    loading.catch(() => this.#open.delete(key, loading));
    return loading;
  }

  /**
   * Deletes a chat and all its messages, in memory and in the store. Changes called on the
   * chat before the delete land first; later ones throw CHAT_DELETED.
   * @throws UNKNOWN_CHAT when this user has no such chat
   */
  async delete(chatId: string): Promise<void> {
    this.#ctx.checkOpen();
    checkChatId(chatId);
    const key = openKey(this.userId, chatId);
    const deleteStored = async () => {
      const deleted = await fromStore("deleting the chat", () => this.#ctx.store.deleteChat(this.userId, chatId));
      if (!deleted) throw unknownChat(this.userId, chatId);
    };
    const loading = this.#open.get(key);
    // A loaded chat joins the delete to its queue now, before anything else is called on it.
    const chat = this.#open.loaded(key) ?? (loading ? await loading.catch(() => undefined) : undefined);
    if (!chat) await deleteStored();
    else {
      await chat.retire(deleteStored);
      this.#open.delete(key, loading);
    }
    this.#ctx.recall?.forgetChat(this.userId, chatId);
  }

  /**
   * Erases the user: every chat with its messages, summaries, vectors and keys, in one store
   * transaction, once this Loom's chats of the user end (later calls throw CHAT_DELETED); recall forgets them.
   * @throws INVALID_ARGUMENT when the store has no eraseUser; STORE_FAILED
   */
  async erase(): Promise<ErasedUser> {
    this.#ctx.checkOpen();
    return eraseUser(this.#ctx, this.userId, () => this.#open.retireUser(this.userId));
  }

  /**
   * Forgets what recall knows of this user: the embeddings in the
   * store and in memory, and the messages waiting for one. Conversations stay. Recall then
   * covers only messages appended after the clear, until `reembed()`.
   * @throws INVALID_ARGUMENT when the Loom was opened with recall: false, or its store has no
   *   markEmbeddingsCleared (a store of your own: see docs/writing-a-store.md); STORE_FAILED
   */
  async clearRecall(): Promise<void> {
    this.#ctx.checkOpen();
    const hub = recallOf(this.#ctx);
    if (typeof this.#ctx.store.markEmbeddingsCleared !== "function") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `clearRecall needs a store with markEmbeddingsCleared and loadEmbeddingsCleared, which ` +
          `${this.#ctx.store.name} has not: add them to it, or call reembed() to drop the embeddings without a mark.`,
      );
    }
    const records = await fromStore("listing chats", () => this.#ctx.store.listChats(this.userId));
    await hub.clear(this.userId, Array.isArray(records) ? records : []);
  }

  /**
   * Drops this user's embeddings (and a clear's marks) so that every message of every chat is
   * embedded again, in the background, as recall next reads each chat (after a clear, or to
   * move to another embedder at once). @throws INVALID_ARGUMENT (recall: false), STORE_FAILED
   */
  async reembed(): Promise<void> {
    this.#ctx.checkOpen();
    await recallOf(this.#ctx).reembed(this.userId);
  }
}

function recallOf(ctx: LoomContext) {
  if (!ctx.recall)
    throw new CtxloomError("INVALID_ARGUMENT", "Recall is off: this Loom was opened with recall: false.");
  return ctx.recall;
}
