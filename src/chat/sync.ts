import type { ToolResultPolicy } from "../models/tool-results.js";
import type { ReasoningTurns } from "../models/reasoning.js";
import { CtxloomError, fromStore, fromStoreNow } from "../errors.js";
import type { Engine } from "../engine/types.js";
import type { CheckedInput, Message } from "../message.js";
import type { ModelProfile, ModelRef } from "../models/profiles.js";
import { MessageColumns } from "../store/columns.js";
import { columnsOf, internalsOf } from "../store/internal.js";
import { residentChat, type ResidentChat } from "../store/memory.js";
import type { ChatRecord, LoadedChat, Store } from "../store/types.js";
import type { TokenCounter } from "../tokens/index.js";
import { ChatNodes } from "./nodes.js";
import type { RecallHub } from "../recall/hub.js";
import { applyHeld, applyRestored, checkHead, storeCorrupt } from "./restore.js";
import { checkStored, lookUpKey, ownKey } from "./append-key.js";
import { appendConditionally, newMessage } from "./conditional-append.js";
import { checkSize } from "./preflight.js";
import type { SummaryLevel } from "../summary/policy.js";
import type { CompactionListener } from "./compaction.js";
import type { Calibration } from "../models/calibration.js";
import type { MemoryAccess } from "../memory/memory.js";
import type { MemoryScope } from "../context/types.js";

/** What a chat shares with its Loom. */
export interface LoomContext {
  readonly engine: Engine;
  readonly store: Store;
  /** The profile of a chat's model and the counter of its messages (loading an exact encoding once). */
  prepare(model: ModelRef): Promise<{ profile: Readonly<ModelProfile>; counter: TokenCounter }>;
  /** Model names the catalog lacks are refused, not read by their family (`Loom.open({ strictModels })`). */
  readonly strictModels?: boolean;
  /** Throws LOOM_CLOSED once the Loom is closed. */
  checkOpen(): void;
  /** The Loom's summary settings. */
  readonly summaries: SummaryLevel;
  /** The Loom's recall (embedder, embedding queue, indexes); null when opened with `recall: false`. */
  readonly recall: RecallHub | null;
  /**
   * How contexts send tool results (`Loom.open({ toolResults })`; a chat's and a build's win, key by key); absent: the
   * defaults.
   */
  readonly toolResults?: ToolResultPolicy;
  /** `Loom.open({ onCompaction })`: told of summaries and clearings. */
  readonly onCompaction?: CompactionListener;
  /**
   * How many turns send their reasoning (`Loom.open({ reasoningTurns })`; a chat's and a build's win); absent: the
   * default.
   */
  readonly reasoningTurns?: ReasoningTurns;
  /** What providers reported of the Loom's models' counts (`chat.observeUsage`, `Loom.open({ calibration })`). */
  readonly calibration: Calibration;
  /** Users' working memories through the store (its cache null when the store keeps none). */
  readonly memory: MemoryAccess;
  /** Which memory contexts carry (`Loom.open({ memoryScope })`; a chat's and a build's win); absent: "user". */
  readonly memoryScope?: MemoryScope;
}

/** The columns a store keeps for a chat in this process, when it does (the memory store). */
export function residentColumns(store: Store, userId: string, chatId: string): MessageColumns | undefined {
  const columns = internalsOf(store)?.resident(userId, chatId);
  return columns instanceof MessageColumns ? columns : undefined;
}

/**
 * A chat's nodes built from what a store handed back (its messages, or the same in columns,
 * which become the chat's own), checked whole (STORE_CORRUPT), or nothing built.
 */
export function restoreNodes(
  ctx: LoomContext,
  record: ChatRecord,
  held: readonly Message[] | MessageColumns,
): { nodes: ChatNodes; head: number } {
  const resident = residentColumns(ctx.store, record.userId, record.id);
  const columns = held instanceof MessageColumns ? held : undefined;
  const nodes = new ChatNodes(ctx.engine, resident, columns === resident ? undefined : columns);
  try {
    const fail = storeCorrupt(record.id);
    if (columns) applyHeld(nodes, fail);
    else applyRestored(nodes, held as readonly Message[], fail);
    return { nodes, head: checkHead(record.head, nodes.size, fail, nodes) };
  } catch (error) {
    nodes.drop();
    throw error;
  }
}

/** What a store loaded, in the form a restore reads fastest: its columns when it gave them. */
export const heldOf = (loaded: LoadedChat): readonly Message[] | MessageColumns => columnsOf(loaded) ?? loaded.messages;

/**
 * A chat's state against its store: its nodes, head and record, and the protocol that
 * keeps them in step with other writers. The store decides ids: an append is conditional
 * on its id being the next one; when another Loom got there first, this one loads what it
 * has not seen (checked like a restore) and retries under the parent it meant, so
 * concurrent appends become sibling branches and no acknowledged message is lost or
 * renumbered. Head moves are last-writer-wins: a head is a cursor, and moving it never
 * loses a message.
 */
export class ChatSync {
  readonly #ctx: LoomContext;
  record: ChatRecord;
  #nodes: ChatNodes | null;
  head: number;
  readonly #counter: TokenCounter;
  readonly #appendLimit: number;
  readonly #profile: Readonly<ModelProfile>;
  /** Its chat in the memory store, when that is the store (null: another store; undefined: not looked up yet). */
  #resident: ResidentChat | null | undefined = undefined;
  /** Called when an unloaded chat's nodes come back (the Loom's cache of open chats counts it again). */
  readonly #onWake: () => void;

  constructor(
    ctx: LoomContext,
    record: ChatRecord,
    nodes: ChatNodes,
    counter: TokenCounter,
    appendLimit: number,
    profile: Readonly<ModelProfile>,
    onWake: () => void,
  ) {
    this.#onWake = onWake;
    this.#ctx = ctx;
    this.record = { ...record };
    this.#nodes = nodes;
    this.head = record.head ?? -1;
    this.#counter = counter;
    this.#appendLimit = appendLimit;
    this.#profile = profile;
  }

  checkOpen(): void {
    this.#ctx.checkOpen();
  }

  get size(): number {
    return this.nodes().size;
  }

  /** The nodes; an unloaded chat wakes here when its store keeps it in this process, else throws CHAT_UNLOADED. */
  nodes(): ChatNodes {
    if (this.#nodes) return this.#nodes;
    const columns = residentColumns(this.#ctx.store, this.record.userId, this.record.id);
    if (!columns) {
      throw new CtxloomError(
        "CHAT_UNLOADED",
        `Chat ${this.record.id} was unloaded from memory (more than maxOpenChats chats were open); ` +
          `await chats.open(id) again, or await chat.refresh(), before reading it.`,
      );
    }
    this.#reload(columns, this.record);
    return this.#nodes!;
  }

  /** True when the nodes are in memory (no wake needed). */
  get awake(): boolean {
    return this.#nodes !== null;
  }

  /** Reloads an unloaded chat from the store. */
  async wake(): Promise<void> {
    if (this.#nodes) return;
    const loaded = await fromStore("loading the chat", () =>
      this.#ctx.store.loadChat(this.record.userId, this.record.id),
    );
    if (!loaded)
      throw new CtxloomError(
        "UNKNOWN_CHAT",
        `Chat ${this.record.id} is no longer in the store; it was deleted elsewhere.`,
      );
    if (this.#nodes) return;
    this.#reload(heldOf(loaded), loaded.chat);
  }

  #reload(held: readonly Message[] | MessageColumns, record: ChatRecord): void {
    const { nodes, head } = restoreNodes(this.#ctx, { ...this.record, head: record.head }, held);
    this.#nodes = nodes;
    this.head = head;
    this.#onWake();
  }

  /** Frees the engine memory; the chat reloads on its next use. */
  sleep(): void {
    if (!this.#nodes) return;
    this.record.head = this.head < 0 ? null : this.head; // a wake from resident columns takes it back
    this.#nodes.drop();
    this.#nodes = null;
  }

  drop(): void {
    this.sleep();
    this.#resident = undefined; // a deleted chat's Chat object, still held, holds none of the store's texts
  }

  /**
   * Counts, writes (conditionally, catching up on conflicts) and links a checked message under
   * `parent`. With a store that answers at once, all of it happens now and the message is
   * returned, not a promise: an append on the in-memory store costs no await.
   */
  add(parent: number, m: CheckedInput, unitEnd: boolean, key?: string): Message | Promise<Message> {
    // Counted up to what a request holds: a text far past it is refused at that cost (a tool
    // result is kept whatever its size, counted whole: a context sends it cut).
    const tokens = checkSize(this.#counter, this.#profile, this.#appendLimit, m);
    if (key === undefined) {
      // The memory store's own chat: the message made here passes its checks, and lands at once.
      const resident =
        this.#resident === undefined
          ? (this.#resident = residentChat(this.#ctx.store, this.record.userId, this.record.id) ?? null)
          : this.#resident;
      if (resident) {
        const nodes = this.nodes();
        const message = newMessage(nodes.size, parent, m, tokens);
        nodes.reserveNext();
        let took: boolean;
        try {
          took = resident.append(message, message.id, message.createdAt);
        } catch (cause) {
          return fromStoreNow("appending the message", () => {
            throw cause;
          }); // mapped as any store failure
        }
        // The store copied the message: it is the caller's to keep.
        if (took) return this.#landed(nodes, message, unitEnd);
      }
    }
    return appendConditionally(this.#ctx.store, this, {
      kind: "message",
      key: key ?? ownKey(this.#ctx.store), // kept across the retries
      make: (_, id) => newMessage(id, parent, m, tokens),
      head: (id) => id,
      // Another store may keep the object it was given: the caller gets a copy.
      landed: (nodes, message) => nodes.message(this.#landed(nodes, message, unitEnd).id),
      stored: (message) => this.#stored(message, m),
    }) as Message | Promise<Message>;
  }

  /** Links a message the store took and moves the head to it; returns it. */
  #landed(nodes: ChatNodes, message: Message, unitEnd: boolean): Message {
    nodes.link(message, unitEnd);
    this.head = message.id;
    this.record.updatedAt = message.createdAt;
    // queued: the append never waits for embeddings
    this.#ctx.recall?.appended(this.record.userId, this.record.id, message);
    return message;
  }

  /**
   * Runs an append under a caller's key. When the tree refuses it (OPEN_TOOL_CALLS,
   * INVALID_TOOL_CALL: a tool call or result this chat already holds, say, as a retry of an
   * append that landed finds it), the store says whether it holds a message under the key: an
   * append with a stale id writes nothing and answers with that message, or with a conflict,
   * and then the refusal stands.
   */
  keyed(key: string, m: CheckedInput, run: () => Message | Promise<Message>): Message | Promise<Message> {
    try {
      return run();
    } catch (refusal) {
      const size = this.nodes().size;
      if (
        !(
          refusal instanceof CtxloomError &&
          (refusal.code === "OPEN_TOOL_CALLS" || refusal.code === "INVALID_TOOL_CALL")
        ) ||
        size === 0
      )
        throw refusal;
      const found = lookUpKey(this.#ctx.store, this.record.userId, this.record.id, size, m, key);
      const read = (stored: Message | null) => (stored ? this.#stored(stored, m) : Promise.reject(refusal));
      return found instanceof Promise ? found.then(read) : read(found);
    }
  }

  /**
   * The answer to an append whose key the chat holds already: the message stored under it (an
   * earlier attempt that landed), caught up with when this chat has not seen it, and the head
   * moved to it, as the first attempt would have. `m` is what this append asked for (null for a
   * summary): a key given to another message is refused.
   */
  #stored(stored: Message, m: CheckedInput | null): Message | Promise<Message> {
    const chatId = this.record.id;
    const id = checkStored(stored, m, chatId);
    const found = (): Message => {
      const nodes = this.nodes();
      if (id >= nodes.size)
        throw storeCorrupt(chatId)(
          `the store holds message ${id} under an append's key, but only ${nodes.size} messages`,
        );
      this.head = id;
      return nodes.message(id);
    };
    return id < this.nodes().size ? found() : this.catchUp().then(found);
  }

  /**
   * Writes a summary made by `make(id)` (null: it no longer applies, nothing is written)
   * and links it; the head stays. On a conflict it catches up and asks `make` again with
   * the next id. Returns the summary linked, or null.
   */
  async addSummary(make: (nodes: ChatNodes, id: number) => Message | null): Promise<Message | null> {
    return appendConditionally(this.#ctx.store, this, {
      kind: "summary",
      key: ownKey(this.#ctx.store),
      make,
      head: () => this.head,
      landed: (nodes, message) => {
        nodes.link(message, false);
        this.record.updatedAt = message.createdAt;
        return nodes.message(message.id);
      },
      // An earlier attempt stored it: link it as stored; the head stays where it is.
      stored: async (message) => {
        const head = this.head;
        const stored = await this.#stored(message, null);
        this.head = head;
        return stored;
      },
    });
  }

  /** Applies the messages the store holds that this chat has not seen. Returns the record read. */
  async catchUp(): Promise<ChatRecord> {
    const { userId, id: chatId } = this.record;
    const nodes = this.nodes();
    const loaded = await fromStore("loading new messages", () => this.#ctx.store.loadChat(userId, chatId, nodes.size));
    if (!loaded)
      throw new CtxloomError("UNKNOWN_CHAT", `Chat ${chatId} is no longer in the store; it was deleted elsewhere.`);
    const fail = storeCorrupt(chatId);
    if (!Array.isArray(loaded.messages)) throw fail("its messages are not an array");
    // A store may hand back the messages from the first, or from `since` on: skip those already linked.
    const fresh = loaded.messages.filter(
      (m) => !(m !== null && typeof m === "object" && Number.isInteger(m.id) && m.id < nodes.size),
    );
    applyRestored(nodes, fresh, fail);
    return loaded.chat;
  }

  /** `chat.refresh()`: catches up and takes the stored head, title and time. */
  async refresh(): Promise<number> {
    const before = this.nodes().size;
    const record = await this.catchUp();
    const nodes = this.nodes();
    this.head = checkHead(record.head, nodes.size, storeCorrupt(this.record.id), nodes);
    if (typeof record.title === "string") this.record.title = record.title;
    if (typeof record.updatedAt === "number") this.record.updatedAt = record.updatedAt;
    return nodes.size - before;
  }

  /** Moves the head (last writer wins) once the store has it. */
  async moveHead(head: number): Promise<void> {
    const now = Date.now();
    const { userId, id: chatId } = this.record;
    const written = await fromStore("moving the head", () =>
      this.#ctx.store.setHead({ userId, chatId, head: head < 0 ? null : head, updatedAt: now }),
    );
    if (written === false)
      throw new CtxloomError("UNKNOWN_CHAT", `Chat ${chatId} is no longer in the store; it was deleted elsewhere.`);
    this.head = head;
    this.record.updatedAt = now;
  }
}
