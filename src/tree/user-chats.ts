import { CtxloomError, checkOptions, describe, fromStore } from "../errors.js";
import { checkSplit, type BudgetSplit } from "../models/budget.js";
import { checkHistoryLimits, registeredProfile, type HistoryLimits, type ModelProfile } from "../models/profiles.js";
import type { ChatOptions, ChatRecord, ChatSummary } from "../store/types.js";
import { Chat, type LoomContext } from "./chat.js";

/** Options of `chats.create()`. */
export interface CreateChatOptions {
  title?: string;
  /** Model the chat talks to: a known name (see getModelProfile) or a profile; default "gpt-4o". */
  model?: string | ModelProfile;
  /** System prompt sent at the top of every context built for this chat. */
  system?: string;
  /** Budget fractions for this chat's contexts (default seed 001's 25/20/40/10/5). */
  budget?: Partial<BudgetSplit>;
  /** Apply seed 001's history limits to this chat's contexts: true for the model's size class, or your own. Default off. */
  historyLimits?: boolean | Partial<HistoryLimits>;
}

/** A chat the Loom holds in memory: loading, or loaded. */
export interface OpenChat {
  loading: Promise<Chat>;
  chat?: Chat;
}

/** The Loom's open chats, keyed by `openKey(userId, chatId)`. */
export type ChatCache = Map<string, OpenChat>;

export const openKey = (userId: string, chatId: string): string => `${userId}\u0000${chatId}`;

/** One user's list of chats (seed 000's UsuarioChat). Get it from `loom.user(id)`. */
export class UserChats {
  readonly userId: string;
  readonly #ctx: LoomContext;
  readonly #open: ChatCache;

  /** @internal */
  constructor(ctx: LoomContext, open: ChatCache, userId: string) {
    this.#ctx = ctx;
    this.#open = open;
    this.userId = userId;
  }

  /**
   * Creates an empty chat and returns it, open.
   * @throws INVALID_ARGUMENT for a non-string title, model or system prompt
   */
  async create(options?: CreateChatOptions): Promise<Chat> {
    this.#ctx.checkOpen();
    const o = checkOptions<CreateChatOptions>(options, "create(options)");
    const text = (value: unknown, what: string, fallback: string | null): string | null => {
      if (value === undefined) return fallback;
      if (typeof value !== "string") throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a string; got ${describe(value)}.`);
      return value;
    };
    const { profile, counter } = await this.#ctx.prepare(o.model ?? "gpt-4o");
    const settings: ChatOptions = {};
    if (typeof o.model === "object") {
      const { counter: _counter, ...stored } = profile;
      settings.profile = stored;
    }
    if (o.budget !== undefined) settings.budget = { ...checkSplit(o.budget) };
    if (o.historyLimits !== undefined) settings.historyLimits = checkHistoryLimits(o.historyLimits);
    const title = text(o.title, "title", "")!;
    const system = text(o.system, "system", null);
    const now = Date.now();
    const record: ChatRecord = {
      id: crypto.randomUUID(),
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
    this.#ctx.checkOpen(); // the Loom may have closed while the tokenizer loaded
    const chat = new Chat(this.#ctx, { chat: record, messages: [] }, profile, counter);
    // Registered before the store write, so that close() waits for it.
    const key = openKey(this.userId, record.id);
    const entry: OpenChat = {
      loading: fromStore("creating the chat", () => this.#ctx.store.createChat(record)).then(
        () => chat,
        (error: unknown) => {
          if (this.#open.get(key) === entry) this.#open.delete(key);
          void chat.retire();
          throw error;
        },
      ),
      chat,
    };
    this.#open.set(key, entry);
    return entry.loading;
  }

  /** The user's chats, most recently updated first. */
  async list(): Promise<ChatSummary[]> {
    this.#ctx.checkOpen();
    const records = await fromStore("listing chats", () => this.#ctx.store.listChats(this.userId));
    return records.map(({ id, title, model, createdAt, updatedAt, messageCount }) => ({ id, title, model, createdAt, updatedAt, messageCount }));
  }

  /**
   * The chat with this id, loaded from the store on first use and kept in memory after.
   * @throws UNKNOWN_CHAT when this user has no such chat; STORE_CORRUPT when it cannot be read back
   */
  async open(chatId: string): Promise<Chat> {
    this.#ctx.checkOpen();
    checkChatId(chatId);
    const key = openKey(this.userId, chatId);
    const cached = this.#open.get(key);
    if (cached) return cached.loading;
    const entry = {} as OpenChat;
    entry.loading = (async () => {
      const loaded = await fromStore("loading the chat", () => this.#ctx.store.loadChat(this.userId, chatId));
      if (!loaded) throw unknownChat(this.userId, chatId);
      const { profile, counter } = await this.#ctx.prepare(modelOf(loaded.chat));
      return (entry.chat = new Chat(this.#ctx, loaded, profile, counter));
    })();
    this.#open.set(key, entry);
    entry.loading.catch(() => this.#open.delete(key));
    return entry.loading;
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
    const entry = this.#open.get(key);
    // A loaded chat joins the delete to its queue now, before anything else is called on it.
    const chat = entry?.chat ?? (entry ? await entry.loading.catch(() => undefined) : undefined);
    if (!chat) return deleteStored();
    await chat.retire(deleteStored);
    if (this.#open.get(key) === entry) this.#open.delete(key);
  }

}

/**
 * The model to reopen a chat with: the profile stored at creation (when it was created with
 * a profile object), unless a profile registered under that name carries a counter, which
 * no store can keep; else the model's name.
 */
function modelOf(chat: ChatRecord): string | ModelProfile {
  const stored = chat.options?.profile;
  if (!stored) return chat.model;
  const registered = registeredProfile(chat.model);
  return registered?.counter ? registered : stored;
}

function checkChatId(chatId: unknown): void {
  if (typeof chatId !== "string" || chatId.length === 0) {
    throw new CtxloomError("INVALID_ARGUMENT", `A chat id must be a non-empty string (chat.id); got ${describe(chatId)}.`);
  }
}

function unknownChat(userId: string, chatId: unknown): CtxloomError {
  return new CtxloomError(
    "UNKNOWN_CHAT",
    `User ${describe(userId)} has no chat ${describe(chatId)}. Use an id from chats.list() or chats.create().`,
  );
}
