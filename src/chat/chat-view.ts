import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { MAX_MESSAGES, type Message } from "../message.js";
import type { ChatExport } from "../store/portable.js";
import type { ChatMetadata, ChatRecord } from "../store/types.js";
import type { ChatNodes } from "./nodes.js";
import { exportChat } from "./chat-export.js";
import type { ChatSync } from "./sync.js";

let useClock = 0;

/**
 * The reads of a chat: its record, its messages, branches, paths and windows. Synchronous;
 * `Chat` adds the changes, which run one at a time through its queue, and owns the state
 * against the store (`sync`) that both read.
 */
export abstract class ChatView {
  /** The chat's id, unique among its user's chats. */
  readonly id: string;
  /** The user the chat belongs to. */
  readonly userId: string;
  /** When the chat was created, in milliseconds since the epoch. */
  readonly createdAt: number;
  /** @internal The chat's state against its store, owned by `Chat`. */
  protected abstract readonly sync: ChatSync;
  /** @internal Set when a delete was called: reads and new changes throw CHAT_DELETED. */
  protected deleted = false;
  /**
   * @internal When the chat was last called (a count of calls on all chats): the Loom unloads the least recently used.
   */
  lastUse = ++useClock;

  /** @internal */
  protected constructor(record: ChatRecord) {
    this.id = record.id;
    this.userId = record.userId;
    this.createdAt = record.createdAt;
  }

  /** The chat's title (from `create({ title })` or `chat.setTitle()`). */
  get title(): string {
    return this.live().record.title;
  }

  /** The model the chat's contexts are built for, unless a call names another. */
  get model(): string {
    return this.live().record.model;
  }

  /** The application's data about the chat (`create({ metadata })`), as a copy; {} when it has none. */
  get metadata(): ChatMetadata {
    return structuredClone(this.live().record.options?.metadata ?? {});
  }

  /** The chat's system prompt (from `create({ system })`), or null. */
  get system(): string | null {
    return this.live().record.system;
  }

  /** When the chat last changed, in milliseconds since the epoch. */
  get updatedAt(): number {
    return this.live().record.updatedAt;
  }

  /** Number of messages in the whole tree (every branch). */
  get messageCount(): number {
    this.live();
    return this.nodes().size;
  }

  /** Id of the head (the active branch's newest message, or any checked-out node); null for an empty chat. */
  get head(): number | null {
    this.live();
    this.nodes(); // an unloaded chat wakes first
    const head = this.sync.head;
    return head < 0 ? null : head;
  }

  /** The message with this id. @throws UNKNOWN_MESSAGE */
  get(id: number): Message {
    this.live();
    return this.checkId(id).message(id);
  }

  /** Ids of the replies to `id` (every branch), in creation order. @throws UNKNOWN_MESSAGE */
  children(id: number): number[] {
    this.live();
    const nodes = this.checkId(id);
    return nodes.engine.children(nodes.tree, id);
  }

  /** Ids of the messages with no parent (the first message of each root branch), in creation order. */
  roots(): number[] {
    this.live();
    const nodes = this.nodes();
    return nodes.engine.children(nodes.tree, -1);
  }

  /** Ids of the other children of `id`'s parent (its alternative versions), `id` excluded. @throws UNKNOWN_MESSAGE */
  siblings(id: number): number[] {
    this.live();
    const nodes = this.checkId(id);
    return nodes.engine.children(nodes.tree, nodes.parent(id)).filter((s) => s !== id);
  }

  /** Ids of the messages nothing replies to (the tip of every branch), in creation order. O(messages). */
  leaves(): number[] {
    this.live();
    const nodes = this.nodes();
    return nodes.engine.leaves(nodes.tree);
  }

  /**
   * The conversation from its root to `id` (default: the head), oldest first: what a user
   * returning to the chat sees. O(depth). @throws UNKNOWN_MESSAGE
   */
  path(id?: number): Message[] {
    this.live();
    const nodes = id === undefined ? this.nodes() : this.checkId(id);
    const head = id ?? this.sync.head;
    return head < 0 ? [] : nodes.walk(head, MAX_MESSAGES);
  }

  /**
   * The last `maxMessages` messages of the active branch, oldest first. O(W): it touches
   * only the messages it returns, whatever the history's size.
   * @throws INVALID_ARGUMENT when maxMessages is not an integer from 1 to 2^31 - 1, or for an unknown option
   */
  window(options?: { maxMessages?: number }): Message[] {
    this.live();
    const nodes = this.nodes();
    const { maxMessages = 40 } = checkOptions<{ maxMessages: number }>(options, "window(options)", ["maxMessages"]);
    checkInteger(maxMessages, "maxMessages", 1, MAX_MESSAGES);
    const head = this.sync.head;
    return head < 0 ? [] : nodes.walk(head, maxMessages);
  }

  /**
   * The chat as portable, versioned JSON (messages, head, options) that `chats.import()`
   * reads back, on any Loom and any store. O(messages).
   */
  export(): ChatExport {
    this.live();
    return exportChat(this.sync.record, this.nodes(), this.sync.head);
  }

  /** @internal */
  protected checkId(id: unknown): ChatNodes {
    const nodes = this.nodes();
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= nodes.size) {
      throw new CtxloomError(
        "UNKNOWN_MESSAGE",
        `Chat ${this.id} has no message ${describe(id)}; its ids run from 0 to ${nodes.size - 1}. ` +
          `Use an id returned by append(), children() or path().`,
      );
    }
    return nodes;
  }

  /** @internal */
  protected live(): ChatSync {
    this.sync.checkOpen();
    this.lastUse = ++useClock;
    if (this.deleted) {
      throw new CtxloomError("CHAT_DELETED", `Chat ${this.id} was deleted; create a new chat or open another one.`);
    }
    return this.sync;
  }

  /**
   * @internal The nodes, without the live check: queued changes run after it, and land even if the Loom closed
   * meanwhile.
   */
  protected nodes(): ChatNodes {
    return this.sync.nodes();
  }
}
