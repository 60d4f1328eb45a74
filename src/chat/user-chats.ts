import { CtxloomError, checkOptions, describe, fromStore } from "../errors.js";
import { checkContent, type MessageInput } from "../message.js";
import { budgetFor, checkSplit } from "../models/budget.js";
import { checkHistoryLimits, isLanguageModel, type ModelProfile } from "../models/profiles.js";
import type { ChatExport } from "../store/portable.js";
import type { ChatRecord, ChatSummary, ErasedUser } from "../store/types.js";
import type { TokenCounter } from "../tokens/index.js";
import { Chat } from "./chat.js";
import { ChatNodes } from "./nodes.js";
import { buildImport, checkExport } from "./chat-export.js";
import { checkKept, currentRecord, modelOf } from "./chat-record.js";
import { heldOf, residentColumns, restoreNodes, type LoomContext } from "./sync.js";
import {
  chatExists,
  chatRecords,
  checkChatId,
  checkNewChatId,
  newChatId,
  pageFrom,
  pageOf,
  summaryOf,
  unknownChat,
  type ChatListPage,
  type ChatListPageOptions,
} from "./chat-list.js";
import { DEFAULT_TOOL_RESULTS, checkToolResultLevel, toolResultPolicy } from "../models/tool-results.js";
import { CREATE_KEYS, settingsOf, type CreateChatOptions } from "./create-options.js";
import { keptSummaries } from "../summary/settings.js";
import { checkReasoningTurns } from "../models/reasoning.js";
import { preflight } from "./preflight.js";
import { eraseUser } from "./retention.js";
import type { BuildOptions } from "../context/types.js";
import { Memory } from "../memory/memory.js";
import { importOwnMemory, withOwnMemory } from "./chat-memory.js";

export type { CreateChatOptions } from "./create-options.js";

/** The Loom's open chats: a chat loading or loaded, by `openKey(userId, chatId)`, least recently used first. */
export interface ChatCache {
  get(key: string): Promise<Chat> | undefined;
  /** The chat under `key` when it has finished loading. */
  loaded(key: string): Chat | undefined;
  /** Registers a chat (loading or loaded) as the most recently used. */
  set(key: string, loading: Promise<Chat>): void;
  delete(key: string, loading?: Promise<Chat>): void;
  /** A chat unloaded earlier came back into memory through a reference its user kept. */
  woke(chat: Chat): void;
  /** Ends every chat of the user held here (their changes called so far land first); the store is not written. */
  retireUser(userId: string): Promise<void>;
}

export const openKey = (userId: string, chatId: string): string => `${userId}\u0000${chatId}`;

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
    this.#ctx.checkOpen();
    const o = checkOptions<CreateChatOptions>(options, "create(options)", CREATE_KEYS);
    const text = (value: unknown, what: string, fallback: string | null): string | null => {
      if (value === undefined) return fallback;
      if (typeof value !== "string")
        throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a string; got ${describe(value)}.`);
      return checkContent(value, what);
    };
    const title = text(o.title, "title", "")!;
    const system = text(o.system, "system", null);
    const id = o.id === undefined ? newChatId() : checkNewChatId(o.id);
    const settings = settingsOf(o, "create(options)");
    // Kept with the chat: its summaries' tokens are counted as this presentation sends them.
    const loom = this.#ctx.summaries;
    const summaries = keptSummaries(settings.summaries, typeof loom === "object" ? loom.presentation : undefined, loom);
    if (summaries !== undefined) settings.summaries = summaries;
    const { profile, counter } = await this.#ctx.prepare(o.model ?? "gpt-4o");
    if (typeof o.model === "object" && !isLanguageModel(o.model)) {
      const { counter: own, ...stored } = profile;
      settings.profile = stored;
      if (own) settings.counter = own.name;
    }
    const now = Date.now();
    const record: ChatRecord = {
      id,
      userId: this.userId,
      title,
      model: profile.name,
      system,
      createdAt: now,
      updatedAt: now,
      messageCount: 0,
      head: null,
      options: settings,
    };
    checkKept(record, "create(options)"); // a profile's name, its counter's
    // A chat of this id open in this Loom (or being created): CHAT_EXISTS. Elsewhere, the store decides.
    const key = openKey(this.userId, id);
    for (let pending = this.#open.get(key); pending && o.id !== undefined; pending = this.#open.get(key)) {
      if (await stands(pending)) throw chatExists(this.userId, id);
    }
    this.#ctx.checkOpen(); // the Loom may have closed while the tokenizer loaded
    // (No await from the loop's last look to the registration: two creates of one id here, one is made.)
    return this.#register(
      record,
      async () => {
        try {
          await fromStore("creating the chat", () => this.#ctx.store.createChat(record));
        } catch (error) {
          throw isChatExists(error) ? chatExists(this.userId, id) : error;
        }
        return new ChatNodes(this.#ctx.engine, residentColumns(this.#ctx.store, this.userId, record.id));
      },
      profile,
      counter,
    );
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
    this.#ctx.checkOpen();
    const o = checkOptions<CreateChatOptions>(options, "create(options)", CREATE_KEYS);
    const budget = o.budget === undefined ? undefined : checkSplit(o.budget);
    const historyLimits = o.historyLimits === undefined ? undefined : checkHistoryLimits(o.historyLimits);
    const { profile, counter } = await this.#ctx.prepare(o.model ?? "gpt-4o");
    const { effective, reserve } = budgetFor(profile, { budget });
    const toolResults = toolResultPolicy(
      checkToolResultLevel(o.toolResults, "create(options).toolResults"),
      this.#ctx.toolResults ?? DEFAULT_TOOL_RESULTS,
    );
    const reasoningTurns =
      checkReasoningTurns(o.reasoningTurns, "create(options).reasoningTurns") ?? this.#ctx.reasoningTurns;
    preflight(
      {
        profile,
        counter,
        system: typeof o.system === "string" ? o.system : null,
        budget,
        historyLimits,
        appendLimit: effective - reserve,
        recall: this.#ctx.recall,
        strictModels: this.#ctx.strictModels === true,
        toolResults,
        reasoningTurns,
      },
      inputs,
      build,
    );
  }

  /**
   * Imports a chat exported by `chat.export()` or `chats.export(id)` (or made by an importer) as a
   * new chat of this user (with the chat's own memory, when the export carries it), in one store transaction: checked
   * whole first (a bad file, or one of a newer version, imports nothing and says what is wrong), tokens counted with
   * the chat's model where left out, the tree built once. Keeps the export's chat id unless this user has it.
   * @throws INVALID_ARGUMENT naming what is wrong; UNKNOWN_MODEL; STORE_FAILED
   */
  async import(data: ChatExport | string): Promise<Chat> {
    this.#ctx.checkOpen();
    const checked = checkExport(data, this.#ctx.summaries);
    checkKept({ ...checked.chat, options: checked.options }, "This chat export cannot be imported");
    const { profile, counter } = await this.#ctx.prepare(
      modelOf({ id: checked.chat.id ?? "(import)", model: checked.chat.model, options: checked.options }),
    );
    // The export's id when this user has no chat of it (open here, or in the store), else a new one.
    const wanted = checked.chat.id;
    const key = openKey(this.userId, wanted ?? "");
    let free = wanted !== undefined;
    for (let pending = this.#open.get(key); pending && free; pending = this.#open.get(key))
      free = !(await stands(pending));
    if (free) free = !(await this.#stored(wanted!));
    this.#ctx.checkOpen();
    const { nodes, head, messages } = buildImport(this.#ctx.engine, checked, counter);
    const c = checked.chat;
    const write = (id: string) => {
      const record: ChatRecord = {
        id,
        userId: this.userId,
        title: c.title,
        model: profile.name,
        system: c.system,
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
        messageCount: messages.length,
        head: head < 0 ? null : head,
        options: checked.options,
      };
      return this.#register(
        record,
        async () => {
          await fromStore("importing the chat", () => this.#ctx.store.importChat(record, messages));
          await importOwnMemory(this.#ctx, this.userId, checked.chat.id, id, checked.memory);
          nodes.adopt(residentColumns(this.#ctx.store, this.userId, id)); // the text is then held once
          return nodes;
        },
        profile,
        counter,
      );
    };
    try {
      // (Made in this Loom since it was looked up: a new id.)
      if (free && !this.#open.get(key)) {
        try {
          return await write(wanted!);
        } catch (error) {
          if (!isChatExists(error)) throw error;
          this.#ctx.checkOpen(); // another Loom sharing the store made a chat of that id meanwhile: a new id
        }
      }
      return await write(newChatId());
    } catch (error) {
      nodes.drop();
      throw error;
    }
  }

  /** Registers a new chat in the cache before its store write, so that close() waits for it. */
  #register(
    record: ChatRecord,
    write: () => Promise<ChatNodes>,
    profile: Readonly<ModelProfile>,
    counter: TokenCounter,
  ): Promise<Chat> {
    const key = openKey(this.userId, record.id);
    const loading = write().then(
      (nodes) => new Chat(this.#ctx, record, nodes, profile, counter, this.#open),
      (error: unknown) => {
        this.#open.delete(key, loading);
        throw error;
      },
    );
    this.#open.set(key, loading);
    return loading;
  }

  /** True when the store holds a chat of this id for the user (Store.hasChat). */
  async #stored(id: string): Promise<boolean> {
    const has = await fromStore("looking the chat up", () => this.#ctx.store.hasChat(this.userId, id));
    if (typeof has !== "boolean")
      throw new CtxloomError(
        "STORE_CORRUPT",
        `The store answered ${describe(has)} to hasChat for chat ${describe(id)}, not true or false.`,
      );
    return has;
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

/** Whether a chat loading (or being created) in the Loom came to be: true when it did. */
const stands = (pending: Promise<Chat>): Promise<boolean> =>
  pending.then(
    () => true,
    () => false,
  );
/** The store's CHAT_EXISTS: the user has a chat of that id already. */
const isChatExists = (error: unknown): boolean => error instanceof CtxloomError && error.code === "CHAT_EXISTS";

function recallOf(ctx: LoomContext) {
  if (!ctx.recall)
    throw new CtxloomError("INVALID_ARGUMENT", "Recall is off: this Loom was opened with recall: false.");
  return ctx.recall;
}
