import type { BudgetSplit } from "../models/budget.js";
import type { HistoryLimits, ModelProfile } from "../models/profiles.js";
import type { Message } from "../tree/message.js";

/** Per-chat settings of the context builder, kept with the chat. */
export interface ChatOptions {
  /** Budget fractions for this chat's contexts. */
  budget?: Partial<BudgetSplit>;
  /** Seed 001's history limits: true for the model's size class, or your own. */
  historyLimits?: boolean | Partial<HistoryLimits>;
  /**
   * The model's profile when the chat was created with a profile object rather than a
   * known name (without its `counter`: a function cannot be stored).
   */
  profile?: Omit<ModelProfile, "counter">;
}

/** A chat's record in a store. */
export interface ChatRecord {
  id: string;
  userId: string;
  title: string;
  model: string;
  /** The chat's system prompt, sent at the top of every context; null for none. */
  system: string | null;
  createdAt: number;
  updatedAt: number;
  messageCount: number;
  /** The head message's id, or null for an empty chat. */
  head: number | null;
  options: ChatOptions;
}

/** What `chats.list()` returns for each chat. */
export type ChatSummary = Pick<ChatRecord, "id" | "title" | "model" | "createdAt" | "updatedAt" | "messageCount">;

/**
 * Where chats persist. A Loom writes through it on every change and reads a chat back
 * whole when it is opened. Messages are append-only (nothing is ever overwritten) and
 * arrive in id order, parents before children, so a store can be a log.
 *
 * Every method may return a promise. A method that throws or rejects must leave the
 * store as it was; the Loom then applies nothing and rethrows.
 */
export interface Store {
  /** A name for messages and stats, e.g. "memory" or "sqlite:./ctxloom.db". */
  readonly name: string;
  createChat(chat: ChatRecord): Promise<void> | void;
  /** The user's chats, most recently updated first. */
  listChats(userId: string): Promise<ChatRecord[]> | ChatRecord[];
  /** The chat and all its messages in id order, or undefined when the user has no such chat. */
  loadChat(userId: string, chatId: string): Promise<LoadedChat | undefined> | LoadedChat | undefined;
  /** Adds a message and moves the head to `head` (the message itself). */
  appendMessage(userId: string, chatId: string, message: Message, head: number, updatedAt: number): Promise<void> | void;
  /** Moves the head without adding a message (regenerate, checkout). */
  setHead(userId: string, chatId: string, head: number | null, updatedAt: number): Promise<void> | void;
  /** Deletes the chat and its messages; false when there was none. */
  deleteChat(userId: string, chatId: string): Promise<boolean> | boolean;
  /** Flushes and releases resources. */
  close(): Promise<void> | void;
}

export interface LoadedChat {
  chat: ChatRecord;
  messages: Message[];
}
