import type { BuildOptions, ContextWindowFor } from "../context/build.js";
import { CANCELLED_RESULT, checkNoOpenCalls, checkToolResult, openCalls } from "../context/tool-units.js";
import { CtxloomError } from "../errors.js";
import { checkMessageInput, type CheckedInput, type Message, type MessageInput } from "../message.js";
import { budgetFor } from "../models/budget.js";
import type { ModelProfile } from "../models/profiles.js";
import type { ChatRecord } from "../store/types.js";
import type { TokenCounter } from "../tokens/index.js";
import { ChatView } from "./chat-view.js";
import type { ChatNodes } from "./nodes.js";
import { SerialQueue } from "./queue.js";
import type { ChatStats } from "./stats.js";
import { ChatSync, type LoomContext } from "./sync.js";
import { appendKey, type AppendOptions } from "./append-key.js";
import { chatRecall } from "../recall/chat-recall.js";
import { ChatContexts } from "./chat-context.js";
import { redactMessage } from "./redact.js";
import { chatToolResults, checkKeptReasoningTurns } from "./tool-results.js";
import type { CompactOptions } from "./compaction.js";
import { DEFAULT_TOOL_RESULTS } from "../models/tool-results.js";
import type { ChatRecallOptions, RecalledMessage } from "../recall/scope.js";
import type { Memory } from "../memory/memory.js";
import { chatMemory } from "./chat-memory.js";

export type { ChatStats } from "./stats.js";
export type { LoomContext } from "./sync.js";

/**
 * One conversation: a tree of messages with a head. Appending moves the head;
 * regenerate and edit add sibling branches; nothing is ever overwritten.
 *
 * The shape of the tree and the per-message numbers live in the engine (WASM arena or
 * its TS twin); texts live in columns by id. Changes are applied one at a time in call
 * order and written through to the store, which decides ids: a change the store rejects
 * never becomes visible, and appends that race with another Loom become sibling branches.
 */
export class Chat extends ChatView {
  readonly #counter: TokenCounter;
  readonly #queue = new SerialQueue();
  readonly #ctx: LoomContext;
  /** @internal */
  protected readonly sync: ChatSync;
  /**
   * What one request may hold: a message costing more (with the reply priming) is refused (a tool result is kept, and
   * sent cut).
   */
  readonly #appendLimit: number;
  #retiring: Promise<void> | null = null;
  /** Its context builds (with their summaries and the last one's usage). */
  readonly #contexts: ChatContexts;
  readonly #clears: boolean;

  /**
   * @internal Chats come from `loom.user(id).create()`, `.open()` or `.import()`. `open` (the
   * Loom's open chats) hears when this chat, unloaded, comes back into memory.
   */
  constructor(
    ctx: LoomContext,
    record: ChatRecord,
    nodes: ChatNodes,
    profile: Readonly<ModelProfile>,
    counter: TokenCounter,
    open: { woke(chat: Chat): void },
  ) {
    super(record);
    const options = record.options ?? {};
    const budget = budgetFor(profile, { budget: options.budget });
    const appendLimit = budget.effective - budget.reserve;
    this.sync = new ChatSync(ctx, record, nodes, counter, appendLimit, profile, () => open.woke(this));
    this.#appendLimit = appendLimit;
    this.#ctx = ctx;
    this.#counter = counter;
    const toolResults = chatToolResults(record, ctx.toolResults ?? DEFAULT_TOOL_RESULTS);
    checkKeptReasoningTurns(record);
    this.#contexts = new ChatContexts(ctx, this.sync, profile, counter, options, toolResults);
    this.#clears = toolResults.clear !== null;
  }

  /**
   * Appends a message after the head and moves the head to it. O(1) plus counting its tokens.
   * While tool calls above the head have no result, only tool results may be appended. A tool
   * result is kept whole whatever its size (and may be empty): a context too small for it sends it
   * cut (see `toolResults`). Another message too large for any request is refused.
   * With `{ key }`, an append the chat holds under that key already returns that message; with
   * `{ parent }`, the message goes under that one instead of the head (see AppendOptions).
   * @throws INVALID_ROLE, INVALID_CONTENT, INVALID_PRIORITY, INVALID_TOOL_CALL, INVALID_ARGUMENT,
   *   OPEN_TOOL_CALLS, MESSAGE_TOO_LARGE, UNKNOWN_MESSAGE (parent); STORE_OUTCOME_UNKNOWN when the
   *   store's answer was lost twice
   */
  append(input: MessageInput, options?: AppendOptions): Promise<Message> {
    return this.#run(() => {
      const m = checkMessageInput(input);
      const key = appendKey(options);
      const parent =
        options?.parent === undefined ? undefined : options.parent === null ? -1 : this.#target(options.parent);
      if (key === undefined) return this.#appendChecked(m, (input as MessageInput).priority, undefined, parent);
      return this.sync.keyed(key, m, () => this.#appendChecked(m, (input as MessageInput).priority, key, parent));
    });
  }

  #appendChecked(
    m: CheckedInput,
    given: MessageInput["priority"],
    key?: string,
    parent?: number,
  ): Message | Promise<Message> {
    const nodes = this.nodes();
    const head = parent ?? this.sync.head;
    const unit = head < 0 ? null : nodes.unitAt(head);
    let unitEnd = false;
    if (m.role === "tool") {
      // A tool result shares its call's priority: the unit is kept or dropped whole.
      const result = checkToolResult(unit, m.toolCallId!, given);
      m.priority = result.priority;
      unitEnd = result.completes;
    } else {
      // (A call's id need only differ from the other calls still open: a new call follows a unit
      // answered whole, and its results name it within its own unit, as providers require.)
      checkNoOpenCalls(unit, m.role);
    }
    return this.sync.add(head, m, unitEnd, key);
  }

  /**
   * Answers every open tool call above the head with a tool result whose content is
   * "cancelled" (CANCELLED_RESULT), so that the conversation can go on. Returns the results
   * added (none when no call is open).
   */
  cancelToolCalls(): Promise<Message[]> {
    return this.#run(async () => {
      const head = this.sync.head;
      const open = openCalls(head < 0 ? null : this.nodes().unitAt(head));
      const out: Message[] = [];
      for (const call of open) {
        out.push(
          await this.#appendChecked(
            { role: "tool", content: CANCELLED_RESULT, priority: "normal", toolCallId: call.id },
            undefined,
          ),
        );
      }
      return out;
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
      const nodes = this.checkId(assistantId);
      if (nodes.roleOf(assistantId) !== "assistant") {
        throw new CtxloomError(
          "WRONG_ROLE",
          `regenerate takes an assistant message; message ${assistantId} is a ${nodes.roleOf(assistantId)} message. ` +
            `To rewrite a user turn use edit().`,
        );
      }
      const parent = nodes.parent(assistantId);
      await this.sync.moveHead(parent);
      return parent < 0 ? null : this.nodes().message(parent);
    });
  }

  /**
   * Rewrites a past user message as a new sibling with `content` (same parent, priority
   * and name); the original and everything after it stay. `content` is what `append` takes:
   * a text, or a list of parts (text, image, file). The head moves to the new message, which
   * is returned.
   * @throws UNKNOWN_MESSAGE, WRONG_ROLE (not a user message), INVALID_CONTENT
   */
  edit(userMessageId: number, content: MessageInput["content"]): Promise<Message> {
    return this.#run(() => {
      const nodes = this.checkId(userMessageId);
      // The content by append's rules for a user message: its text, and its parts when one is not text.
      const input = checkMessageInput({ role: "user", content });
      if (nodes.roleOf(userMessageId) !== "user") {
        throw new CtxloomError(
          "WRONG_ROLE",
          `edit takes a user message; message ${userMessageId} is a ${nodes.roleOf(userMessageId)} message. ` +
            `To get a new assistant answer use regenerate().`,
        );
      }
      const original = nodes.message(userMessageId);
      const parent = original.parentId ?? -1;
      checkNoOpenCalls(parent < 0 ? null : nodes.unitAt(parent), "user");
      input.priority = original.priority;
      if (original.name !== undefined) input.name = original.name;
      return this.sync.add(parent, input, false);
    });
  }

  /**
   * Moves the head to any message (switch branch). O(1). Returns that message.
   * @throws UNKNOWN_MESSAGE
   */
  checkout(id: number): Promise<Message> {
    return this.#run(async () => {
      await this.sync.moveHead(this.#target(id));
      return this.nodes().message(id);
    });
  }

  /**
   * `id` as a message to go on from (a checkout, an append's parent). @throws UNKNOWN_MESSAGE, WRONG_ROLE (a summary)
   */
  #target(id: number): number {
    if (this.checkId(id).isSummary(id)) {
      throw new CtxloomError(
        "WRONG_ROLE",
        `Message ${id} is a summary; nothing is appended under a summary. Check out the last message it covers ` +
          `(get(${id}).covers.last) instead.`,
      );
    }
    return id;
  }

  /**
   * Erases message `id`'s content where ctxloom keeps it, for a user who asks (privacy): the text
   * becomes REDACTED ("[redacted]"), content parts (images, files, reasoning) go, tool calls keep
   * their ids and names with "{}" as arguments; ids, roles, the tree and the head stay, and its
   * token count becomes what it sends now (never more). Every summary whose run holds the message is
   * redone by the extractive summarizer from the redacted run, and counted again. In the store (old bytes
   * overwritten where the store can: see docs/chats.md, "Chats in a product"), its embeddings, recall's indexes and
   * queue. Another Loom holding the chat open keeps the old text until it opens it again.
   * Returns the message as it is now. @throws UNKNOWN_MESSAGE, WRONG_ROLE (a summary), STORE_FAILED
   */
  redact(id: number): Promise<Message> {
    return this.#run(() => {
      this.checkId(id);
      const { userId, id: chatId } = this.sync.record;
      return redactMessage(
        {
          ctx: this.#ctx,
          userId,
          chatId,
          nodes: this.nodes(),
          counter: this.#counter,
          presentation: this.#contexts.summaries.presentation,
        },
        id,
      );
    });
  }

  /**
   * Brings the chat up to date with the store: messages other Looms (processes, servers)
   * appended, and the stored head and title. Returns the number of messages it added.
   */
  refresh(): Promise<number> {
    return this.#run(() => this.sync.refresh());
  }

  /**
   * The context of the next request: system prompt and memory truncated to their slices,
   * the conversation selected within the rest of the budget (priority, then recency; the
   * newest user turn and CRITICAL messages kept; tool calls with their results), formatted
   * for the API. Never exceeds the budget: `usage.total <= usage.limit`.
   * @throws MESSAGE_TOO_LARGE when the newest user turn (with CRITICAL messages and input)
   *   cannot fit; INVALID_ARGUMENT, UNKNOWN_MODEL for bad options
   */
  buildContext<O extends BuildOptions | undefined = undefined>(options?: O): Promise<ContextWindowFor<O>> {
    // (Not async: the promise the queue makes is the caller's, with no second one around it.)
    try {
      return this.#contexts.build(options, "buildContext(options)", (change) => this.#run(change)) as Promise<
        ContextWindowFor<O>
      >;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * @internal `buildContext` for an SDK that sends the kept turns' reasoning with an OpenAI-format
   * context (toModelContext, toLangChainMessages): that reasoning is counted, as sent. With `at`,
   * built at that message instead of the head (a request that answers it, whatever moved the head).
   */
  buildForSdk<O extends BuildOptions | undefined = undefined>(options?: O, at?: number): Promise<ContextWindowFor<O>> {
    if (at !== undefined) {
      try {
        this.checkId(at);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const how = at === undefined ? SDK : { sdk: true, at };
    return this.#contexts.build(options, "buildContext(options)", (change) => this.#run(change), how) as Promise<
      ContextWindowFor<O>
    >;
  }

  /** The same context as `buildContext`, as one formatted string ("Role: text" blocks). */
  async buildPrompt(options?: Omit<BuildOptions, "format" | "providerCounter">): Promise<string> {
    return this.#contexts.prompt(options, (change) => this.#run(change));
  }

  /**
   * The messages that match `query` best (see ChatRecallOptions): with `{ k }`, the k best
   * messages, best first; otherwise whole exchanges, best first, each message with its
   * exchange's score and reason. Waits for queued embeddings of the scope.
   * @throws INVALID_ARGUMENT (an empty query, bad options, a Loom opened with recall: false), EMBEDDER_FAILED
   */
  recall(query: string, options?: ChatRecallOptions): Promise<RecalledMessage[]> {
    return this.#run(() => chatRecall(this.#ctx.recall, this.#contexts.current(), query, options));
  }

  /**
   * @internal Throws what appending `inputs` (user messages), then `buildContext(build)`, would throw now (see
   * preflight).
   */
  preflight(inputs: readonly MessageInput[], build: BuildOptions | undefined): void {
    this.live();
    this.#contexts.preflight(inputs, build, this.#appendLimit);
  }

  /**
   * Summarizes now, as a user's /compact: by the chat's summary settings (else its Loom's, else the
   * defaults) as if the trigger had fired, even "manual" (`summaries: false`), the run its selection takes (the oldest
   * share of the conversation, or all but the newest messages), never the newest user turn. The originals stay in the
   * tree; contexts send the summary in their place. `instructions` are told to the summarizer beside its prompt.
   * Returns the summary (its `covers` names the run), or null when nothing can be summarized. `Loom.open({ onCompaction
   * })` hears it begin and end.
   * @throws INVALID_ARGUMENT (bad options), STORE_FAILED
   */
  compact(options?: CompactOptions): Promise<Message | null> {
    return this.#contexts.compact(options, (change) => this.#run(change));
  }

  /**
   * Tells the chat how many input tokens the provider counted for a request it built (`context`,
   * as buildContext returned it): OpenAI's `usage` (`prompt_tokens`), Anthropic's (`input_tokens`
   * with its cache reads and writes), the AI SDK's (`inputTokens`), Gemini's `usageMetadata`, or
   * a number. The Loom learns the model's correction (per script), and later budgets hold to the
   * provider's counts (`stats().calibration`; keep it with `loom.exportCalibration()`). The agent
   * loops call it from the answers they are given.
   * @throws INVALID_ARGUMENT for what is not a context buildContext returned, or a report with no input tokens
   */
  observeUsage(context: object, reported: unknown): void {
    this.#contexts.observeUsage(context, reported);
  }

  /**
   * @internal What the agent loops read: the chat's counter, what a request may hold, whether its settings (or its
   * Loom's) clear tool results.
   */
  agentSettings(): { counter: TokenCounter; limit: number; clears: boolean } {
    this.live();
    return { counter: this.#counter, limit: this.#appendLimit, clears: this.#clears };
  }

  /**
   * The working memory this chat's contexts carry: the user's (`loom.user(id).memory`), or the
   * chat's own when created with `memoryScope: "chat"`. Writes through it say they came from this chat.
   */
  get memory(): Memory {
    this.live();
    return chatMemory(this.#ctx, this.sync.record);
  }

  /** Usage stats: the chat's size, the last context's usage and what compression saved. O(1). */
  stats(): ChatStats {
    this.live();
    return this.#contexts.stats();
  }

  /**
   * @internal Ends the chat after the changes already called: runs `beforeDrop` (the store's
   * delete), then frees its memory. If `beforeDrop` throws, the chat stays as it was.
   */
  retire(beforeDrop?: () => unknown): Promise<void> {
    // A second call waits for the first (it may still fail and leave the chat as it was).
    if (this.#retiring) return this.#retiring;
    this.deleted = true; // calls from now on throw CHAT_DELETED; those already queued land first
    const retiring = this.#queue.enqueue(async () => {
      try {
        await beforeDrop?.();
      } catch (error) {
        this.deleted = false;
        this.#retiring = null;
        throw error;
      }
      this.sync.drop();
    });
    this.#retiring = retiring;
    return retiring;
  }

  /**
   * @internal Frees the chat's engine memory once the changes called so far have landed; it reloads on its next use.
   */
  unload(): Promise<void> {
    return this.#queue.enqueue(() => this.sync.sleep());
  }

  /**
   * Runs changes one at a time, in call order. Whether the chat and its Loom are still
   * open is checked at the call; everything else when the change's turn comes.
   */
  #run<T>(change: () => T | Promise<T>): Promise<T> {
    try {
      this.live();
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#queue.enqueue(change, this.sync);
  }
}

const SDK = { sdk: true };
