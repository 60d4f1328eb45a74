import { buildContext, formatPrompt, type BuildOptions, type ContextWindow, type ContextSource, type Usage } from "../context/build.js";
import type { AnthropicMessage, OpenAIMessage } from "../context/format.js";
import { CtxloomError, checkInteger, checkOptions, describe, fromStore } from "../errors.js";
import type { Engine } from "../engine/types.js";
import { FLAG_SUMMARY, FLAG_TOOL_CALLS, FLAG_UNIT_END, PRIORITIES, ROLES } from "../engine/types.js";
import { budgetFor } from "../models/budget.js";
import type { ModelProfile } from "../models/profiles.js";
import type { ChatOptions, ChatRecord, LoadedChat, Store } from "../store/types.js";
import { REPLY_PRIMING, messageTokens, type TokenCounter } from "../tokens/index.js";
import {
  checkContent, checkMessageInput, priorityCode, roleCode,
  type Message, type MessageExtras, type MessageInput,
} from "./message.js";

/** What a chat shares with its Loom. */
export interface LoomContext {
  readonly engine: Engine;
  readonly store: Store;
  /** The profile of a chat's model and the counter of its messages (loading an exact encoding once). */
  prepare(model: string | ModelProfile): Promise<{ profile: Readonly<ModelProfile>; counter: TokenCounter }>;
  /** Throws LOOM_CLOSED once the Loom is closed. */
  checkOpen(): void;
}

/**
 * One conversation: a tree of messages with a head (seed 000). Appending moves the head;
 * regenerate and edit add sibling branches; nothing is ever overwritten.
 *
 * The shape of the tree and the per-message numbers live in the engine (WASM arena or
 * its TS twin); texts and optional fields live here, indexed by message id. Changes are
 * applied one at a time in call order and written through to the store; a change the
 * store rejects never becomes visible.
 */
export class Chat {
  readonly id: string;
  readonly userId: string;
  readonly createdAt: number;
  #title: string;
  #model: string;
  #system: string | null;
  #updatedAt: number;

  readonly #ctx: LoomContext;
  readonly #tree: number;
  readonly #profile: Readonly<ModelProfile>;
  readonly #counter: TokenCounter;
  readonly #options: ChatOptions;
  /** Tokens a request to the chat's model may use: a message costing more can never be sent. */
  readonly #appendLimit: number;
  #lastUsage: Usage | null = null;
  #lastEvicted = 0;
  #head = -1;
  readonly #contents: string[] = [];
  readonly #createdAtOf: number[] = [];
  readonly #extras = new Map<number, Readonly<MessageExtras>>();
  #deleted = false;
  #retiring: Promise<void> | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  /** @internal Chats come from `loom.user(id).create()` or `.open()`. */
  constructor(ctx: LoomContext, loaded: LoadedChat, profile: Readonly<ModelProfile>, counter: TokenCounter) {
    const { chat, messages } = loaded;
    this.#ctx = ctx;
    this.id = chat.id;
    this.userId = chat.userId;
    this.createdAt = chat.createdAt;
    this.#title = chat.title;
    this.#model = chat.model;
    this.#system = chat.system;
    this.#updatedAt = chat.updatedAt;
    this.#profile = profile;
    this.#counter = counter;
    this.#options = chat.options ?? {};
    const budget = budgetFor(profile, { split: this.#options.budget });
    this.#appendLimit = budget.effective - budget.reserve;
    this.#tree = ctx.engine.createTree();
    try {
      for (const m of messages) this.#restore(m);
      if (chat.head !== null && !(Number.isInteger(chat.head) && chat.head >= 0 && chat.head < messages.length)) {
        throw corrupt(chat.id, `its head ${describe(chat.head)} is not one of its ${messages.length} messages`);
      }
    } catch (error) {
      ctx.engine.dropTree(this.#tree);
      throw error;
    }
    this.#head = chat.head ?? -1;
  }

  #restore(m: Message): void {
    const id = this.#contents.length;
    const parent = m.parentId ?? -1;
    if (m.id !== id || !Number.isInteger(parent) || parent < -1 || parent >= id || !ROLES.includes(m.role) ||
        !PRIORITIES.includes(m.priority) || typeof m.content !== "string" || !Number.isInteger(m.tokens) || m.tokens < 0 ||
        (m.role === "tool") !== (typeof m.toolCallId === "string")) {
      throw corrupt(this.id, `message ${id} is malformed or out of order`);
    }
    let unitEnd = false;
    if (m.role === "tool") {
      // As at append: a result answers an open call of the assistant message above it, with its priority.
      const { assistant, answered } = this.#openCalls(parent);
      const calls = assistant >= 0 ? this.#extras.get(assistant)!.toolCalls! : [];
      if (!calls.some((c) => c.id === m.toolCallId) || answered.has(m.toolCallId!) ||
          PRIORITIES[this.#ctx.engine.priority(this.#tree, assistant)] !== m.priority) {
        throw corrupt(this.id, `tool result ${id} answers no open call of the message above it, or not with its priority`);
      }
      unitEnd = answered.size + 1 === calls.length;
    }
    this.#link(parent, { ...m, unitEnd }, m.tokens, m.createdAt);
  }

  /** Adds a node to the engine and its text to the side table. Throws OUT_OF_MEMORY before changing anything. */
  #link(
    parent: number,
    m: MessageInput & MessageExtras & { kind?: Message["kind"]; unitEnd?: boolean },
    tokens: number,
    createdAt: number,
  ): number {
    let flags = 0;
    if (m.toolCalls) flags |= FLAG_TOOL_CALLS;
    if (m.kind === "summary") flags |= FLAG_SUMMARY;
    if (m.unitEnd) flags |= FLAG_UNIT_END;
    const id = this.#ctx.engine.append(this.#tree, parent, tokens, roleCode(m.role), priorityCode(m.priority ?? "normal"), flags);
    this.#contents.push(m.content);
    this.#createdAtOf.push(createdAt);
    if (m.name !== undefined || m.toolCalls || m.toolCallId !== undefined) {
      const extras: MessageExtras = {};
      if (m.name !== undefined) extras.name = m.name;
      if (m.toolCalls) extras.toolCalls = m.toolCalls.map((c) => Object.freeze({ ...c, function: Object.freeze({ ...c.function }) }));
      if (m.toolCallId !== undefined) extras.toolCallId = m.toolCallId;
      this.#extras.set(id, Object.freeze(extras));
    }
    return id;
  }

  get title(): string {
    this.#checkLive();
    return this.#title;
  }

  get model(): string {
    return this.#model;
  }

  /** The chat's system prompt (from `create({ system })`), or null. */
  get system(): string | null {
    return this.#system;
  }

  get updatedAt(): number {
    this.#checkLive();
    return this.#updatedAt;
  }

  /** Number of messages in the whole tree (every branch). */
  get messageCount(): number {
    this.#checkLive();
    return this.#contents.length;
  }

  /** Id of the head (the active branch's newest message, or any checked-out node); null for an empty chat. */
  get head(): number | null {
    this.#checkLive();
    return this.#head < 0 ? null : this.#head;
  }

  /**
   * Appends a message after the head and moves the head to it. O(1) plus counting its tokens.
   * @throws INVALID_ROLE, INVALID_CONTENT, INVALID_PRIORITY, INVALID_TOOL_CALL, INVALID_ARGUMENT
   */
  append(input: MessageInput): Promise<Message> {
    return this.#run(() => {
      const m: ReturnType<typeof checkMessageInput> & { unitEnd?: boolean } = checkMessageInput(input);
      if (m.role === "tool") {
        const call = this.#checkToolResult(m.toolCallId!);
        // A tool result shares its call's priority: the unit is kept or dropped whole.
        if ((input as MessageInput).priority !== undefined && m.priority !== call.priority) {
          throw new CtxloomError(
            "INVALID_PRIORITY",
            `A tool result takes the priority of the assistant message that made the call (${call.priority}); ` +
              `leave priority out or pass "${call.priority}".`,
          );
        }
        m.priority = call.priority;
        m.unitEnd = call.completes;
      }
      return this.#add(this.#head, m);
    });
  }

  /**
   * Prepares a new answer to the turn that `assistantId` answered: the head moves to its
   * parent, so the next append becomes a sibling of `assistantId`, which stays in the tree.
   * Returns the new head message (null when the assistant message was a root).
   * @throws UNKNOWN_MESSAGE, WRONG_ROLE (not an assistant message)
   */
  regenerate(assistantId: number): Promise<Message | null> {
    return this.#run(async () => {
      this.#checkId(assistantId);
      if (this.#ctx.engine.role(this.#tree, assistantId) !== roleCode("assistant")) {
        throw new CtxloomError(
          "WRONG_ROLE",
          `regenerate takes an assistant message; message ${assistantId} is a ${this.#roleOf(assistantId)} message. ` +
            `To rewrite a user turn use edit().`,
        );
      }
      const parent = this.#ctx.engine.parent(this.#tree, assistantId);
      await this.#moveHead(parent);
      return parent < 0 ? null : this.#message(parent);
    });
  }

  /**
   * Rewrites a past user message as a new sibling with `content` (same parent, priority
   * and name); the original and everything after it stay. The head moves to the new
   * message, which is returned.
   * @throws UNKNOWN_MESSAGE, WRONG_ROLE (not a user message), INVALID_CONTENT
   */
  edit(userMessageId: number, content: string): Promise<Message> {
    return this.#run(() => {
      this.#checkId(userMessageId);
      const text = checkContent(content);
      if (this.#ctx.engine.role(this.#tree, userMessageId) !== roleCode("user")) {
        throw new CtxloomError(
          "WRONG_ROLE",
          `edit takes a user message; message ${userMessageId} is a ${this.#roleOf(userMessageId)} message. ` +
            `To get a new assistant answer use regenerate().`,
        );
      }
      if (text.length === 0) throw new CtxloomError("INVALID_CONTENT", "An edited message must not be empty.");
      const original = this.#message(userMessageId);
      const input: MessageInput = { role: "user", content: text, priority: original.priority };
      if (original.name !== undefined) input.name = original.name;
      return this.#add(original.parentId ?? -1, input);
    });
  }

  /**
   * Moves the head to any message (switch branch). O(1). Returns that message.
   * @throws UNKNOWN_MESSAGE
   */
  checkout(id: number): Promise<Message> {
    return this.#run(async () => {
      this.#checkId(id);
      await this.#moveHead(id);
      return this.#message(id);
    });
  }

  /** The message with this id. @throws UNKNOWN_MESSAGE */
  get(id: number): Message {
    this.#checkLive();
    this.#checkId(id);
    return this.#message(id);
  }

  /** Ids of the replies to `id` (every branch), in creation order. @throws UNKNOWN_MESSAGE */
  children(id: number): number[] {
    this.#checkLive();
    this.#checkId(id);
    return this.#ctx.engine.children(this.#tree, id);
  }

  /** Ids of the messages with no parent (the first message of each root branch), in creation order. */
  roots(): number[] {
    this.#checkLive();
    return this.#ctx.engine.children(this.#tree, -1);
  }

  /** Ids of the other children of `id`'s parent (its alternative versions), `id` excluded. @throws UNKNOWN_MESSAGE */
  siblings(id: number): number[] {
    this.#checkLive();
    this.#checkId(id);
    return this.#ctx.engine.children(this.#tree, this.#ctx.engine.parent(this.#tree, id)).filter((s) => s !== id);
  }

  /** Ids of the messages nothing replies to (the tip of every branch), in creation order. O(messages). */
  leaves(): number[] {
    this.#checkLive();
    return this.#ctx.engine.leaves(this.#tree);
  }

  /**
   * The conversation from its root to `id` (default: the head), oldest first: what a user
   * returning to the chat sees. O(depth). @throws UNKNOWN_MESSAGE
   */
  path(id?: number): Message[] {
    this.#checkLive();
    const head = id === undefined ? this.#head : (this.#checkId(id), id);
    if (head < 0) return [];
    return this.#walk(head, Number.MAX_SAFE_INTEGER);
  }

  /**
   * The last `maxMessages` messages of the active branch, oldest first. O(W): it touches
   * only the messages it returns, whatever the history's size.
   * @throws INVALID_ARGUMENT when maxMessages is not a positive integer
   */
  window(options?: { maxMessages?: number }): Message[] {
    this.#checkLive();
    const { maxMessages = 40 } = checkOptions<{ maxMessages: number }>(options, "window(options)");
    checkInteger(maxMessages, "maxMessages", 1);
    if (this.#head < 0) return [];
    return this.#walk(this.#head, maxMessages);
  }

  /**
   * The context of the next request: system prompt and memory truncated to their slices,
   * the conversation selected within the rest of the budget (priority, then recency; the
   * newest user turn and CRITICAL messages kept; tool calls with their results), formatted
   * for the API. Never exceeds the budget: `usage.total <= usage.limit`.
   * @throws MESSAGE_TOO_LARGE when the newest user turn (with CRITICAL messages and input)
   *   cannot fit; INVALID_ARGUMENT, UNKNOWN_MODEL for bad options
   */
  async buildContext(options?: BuildOptions & { format?: "openai" }): Promise<ContextWindow<OpenAIMessage>>;
  async buildContext(options: BuildOptions & { format: "anthropic" }): Promise<ContextWindow<AnthropicMessage>>;
  async buildContext(options?: BuildOptions): Promise<ContextWindow> {
    return this.#run(() => this.#build(options));
  }

  /** The same context as `buildContext`, as one formatted string ("Role: text" blocks). */
  async buildPrompt(options?: Omit<BuildOptions, "format">): Promise<string> {
    return this.#run(() => formatPrompt(this.#build({ ...checkOptions<BuildOptions>(options, "buildPrompt(options)"), format: "openai" })));
  }

  #build(options: BuildOptions | undefined): ContextWindow {
    const context = buildContext(this.#source(), options);
    this.#lastUsage = context.usage;
    this.#lastEvicted = context.evicted;
    return context;
  }

  #source(): ContextSource {
    return {
      engine: this.#ctx.engine,
      tree: this.#tree,
      head: this.#head,
      counter: this.#counter,
      profile: this.#profile,
      system: this.#system,
      budget: this.#options.budget,
      historyLimits: this.#options.historyLimits,
      message: (id) => this.#message(id),
    };
  }

  /**
   * Seed 001's usage stats: the chat's size, the last context's usage and what
   * compression saved. O(1).
   */
  stats(): ChatStats {
    this.#checkLive();
    const usage = this.#lastUsage;
    return {
      messages: this.#contents.length,
      branchMessages: this.#head < 0 ? 0 : this.#ctx.engine.depth(this.#tree, this.#head) + 1,
      model: this.#profile.name,
      contextWindow: this.#profile.contextWindow,
      tokenizer: this.#counter.name,
      lastUsage: usage ? { ...usage } : null,
      tokens: usage?.total ?? 0,
      usagePercent: usage ? Math.round((1000 * usage.total) / usage.limit) / 10 : 0,
      evicted: this.#lastEvicted,
      compressions: 0,
      tokensSaved: 0,
      compressionRatio: 1,
    };
  }

  /**
   * @internal Ends the chat after the changes already called: runs `beforeDrop` (the store's
   * delete), then frees its memory. If `beforeDrop` throws, the chat stays as it was.
   */
  retire(beforeDrop?: () => unknown): Promise<void> {
    // A second call waits for the first (it may still fail and leave the chat as it was).
    if (this.#retiring) return this.#retiring;
    this.#deleted = true; // calls from now on throw CHAT_DELETED; those already queued land first
    const retiring = this.#enqueue(async () => {
      try {
        await beforeDrop?.();
      } catch (error) {
        this.#deleted = false;
        this.#retiring = null;
        throw error;
      }
      this.#ctx.engine.dropTree(this.#tree);
    });
    this.#retiring = retiring;
    return retiring;
  }

  /** The last `max` messages of the branch ending at `head`, oldest first. O(W). */
  #walk(head: number, max: number): Message[] {
    const n = this.#ctx.engine.walk(this.#tree, head, max);
    const ids = this.#ctx.engine.ids;
    const out = new Array<Message>(n);
    for (let i = 0; i < n; i++) out[i] = this.#message(ids[i]!);
    return out;
  }

  #message(id: number): Message {
    const e = this.#ctx.engine;
    const t = this.#tree;
    const parent = e.parent(t, id);
    const m: Message = {
      id,
      parentId: parent < 0 ? null : parent,
      role: ROLES[e.role(t, id)]!,
      content: this.#contents[id]!,
      priority: PRIORITIES[e.priority(t, id)]!,
      tokens: e.tokens(t, id),
      createdAt: this.#createdAtOf[id]!,
      kind: e.flags(t, id) & FLAG_SUMMARY ? "summary" : "message",
    };
    const x = this.#extras.get(id);
    if (x) {
      if (x.name !== undefined) m.name = x.name;
      if (x.toolCalls) m.toolCalls = x.toolCalls.slice();
      if (x.toolCallId !== undefined) m.toolCallId = x.toolCallId;
    }
    return m;
  }

  async #add(parent: number, m: MessageInput & MessageExtras & { unitEnd?: boolean }): Promise<Message> {
    const tokens = messageTokens(this.#counter, m);
    if (tokens + REPLY_PRIMING > this.#appendLimit) {
      throw new CtxloomError(
        "MESSAGE_TOO_LARGE",
        `This message costs ${tokens} tokens and cannot fit ${this.#profile.name}'s window even alone ` +
          `(a request may use ${this.#appendLimit} tokens: 90% of ${this.#profile.contextWindow} less the reserve). ` +
          `Split it into several messages, summarize it, or use a model with a larger window.`,
      );
    }
    const now = Date.now();
    const id = this.#contents.length;
    // Room first, so that linking cannot fail once the store has the message; the message
    // stays invisible to readers until the store has accepted it.
    this.#ctx.engine.reserve(this.#tree, id + 1);
    const message: Message = {
      id, parentId: parent < 0 ? null : parent, role: m.role, content: m.content, priority: m.priority ?? "normal",
      tokens, createdAt: now, kind: "message",
    };
    if (m.name !== undefined) message.name = m.name;
    if (m.toolCalls) message.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
    if (m.toolCallId !== undefined) message.toolCallId = m.toolCallId;
    await fromStore("appending the message", () => this.#ctx.store.appendMessage(this.userId, this.id, message, id, now));
    this.#link(parent, m, tokens, now);
    this.#head = id;
    this.#updatedAt = now;
    return message;
  }

  async #moveHead(head: number): Promise<void> {
    const now = Date.now();
    await fromStore("moving the head", () => this.#ctx.store.setHead(this.userId, this.id, head < 0 ? null : head, now));
    this.#head = head;
    this.#updatedAt = now;
  }

  /**
   * A tool result must follow the assistant message that made the call, or another result
   * of it. Returns the call's priority and whether this result answers its last open call.
   */
  #checkToolResult(toolCallId: string): { priority: Message["priority"]; completes: boolean } {
    const { assistant, answered } = this.#openCalls(this.#head);
    const calls = assistant >= 0 ? this.#extras.get(assistant)!.toolCalls! : [];
    if (!calls.some((c) => c.id === toolCallId)) {
      throw new CtxloomError(
        "INVALID_TOOL_CALL",
        `No tool call ${describe(toolCallId)} awaits an answer here: a tool message must follow the assistant ` +
          `message whose toolCalls include its toolCallId (or another tool result of that message).`,
      );
    }
    if (answered.has(toolCallId)) {
      throw new CtxloomError("INVALID_TOOL_CALL", `Tool call ${describe(toolCallId)} is already answered on this branch.`);
    }
    return { priority: PRIORITIES[this.#ctx.engine.priority(this.#tree, assistant)]!, completes: answered.size + 1 === calls.length };
  }

  /** The assistant message with tool calls that `id` belongs to (-1 if none) and the calls answered up to `id`. */
  #openCalls(id: number): { assistant: number; answered: Set<string> } {
    const e = this.#ctx.engine;
    const answered = new Set<string>();
    while (id >= 0 && e.role(this.#tree, id) === roleCode("tool")) {
      answered.add(this.#extras.get(id)!.toolCallId!);
      id = e.parent(this.#tree, id);
    }
    return { assistant: id >= 0 && e.flags(this.#tree, id) & FLAG_TOOL_CALLS ? id : -1, answered };
  }

  #roleOf(id: number): string {
    return ROLES[this.#ctx.engine.role(this.#tree, id)]!;
  }

  #checkId(id: unknown): void {
    if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= this.#contents.length) {
      throw new CtxloomError(
        "UNKNOWN_MESSAGE",
        `Chat ${this.id} has no message ${describe(id)}; its ids run from 0 to ${this.#contents.length - 1}. ` +
          `Use an id returned by append(), children() or path().`,
      );
    }
  }

  #checkLive(): void {
    this.#ctx.checkOpen();
    if (this.#deleted) {
      throw new CtxloomError("CHAT_DELETED", `Chat ${this.id} was deleted; create a new chat or open another one.`);
    }
  }

  /**
   * Runs changes one at a time, in call order. Whether the chat and its Loom are still
   * open is checked at the call; everything else when the change's turn comes.
   */
  #run<T>(change: () => T | Promise<T>): Promise<T> {
    try {
      this.#checkLive();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#enqueue(change);
  }

  #enqueue<T>(change: () => T | Promise<T>): Promise<T> {
    const next = this.#queue.then(change);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** @internal The chat's record, for stores and listings. */
  record(): ChatRecord {
    return {
      id: this.id, userId: this.userId, title: this.#title, model: this.#model, system: this.#system,
      createdAt: this.createdAt, updatedAt: this.#updatedAt, messageCount: this.#contents.length,
      head: this.#head < 0 ? null : this.#head, options: this.#options,
    };
  }
}

/** What `chat.stats()` returns. */
export interface ChatStats {
  /** Messages in the whole tree (every branch). */
  messages: number;
  /** Messages on the active branch (root to head). */
  branchMessages: number;
  model: string;
  contextWindow: number;
  /** The counter of the chat's messages ("o200k_base", "heuristic:0.28", ...). */
  tokenizer: string;
  /** The last built context's usage, or null before the first build. */
  lastUsage: Usage | null;
  /** Tokens of the last built context. */
  tokens: number;
  /** The last context's total as a percentage of its limit. */
  usagePercent: number;
  /** Messages of the branch the last context left out. */
  evicted: number;
  /** Summaries made so far, tokens they saved, and their average compression ratio (1: none). */
  compressions: number;
  tokensSaved: number;
  compressionRatio: number;
}

function corrupt(chatId: string, what: string): CtxloomError {
  return new CtxloomError(
    "STORE_CORRUPT",
    `Chat ${chatId} cannot be loaded: ${what}. The store was changed outside ctxloom; restore it from a backup.`,
  );
}

