// A LangChain chat message history kept in a ctxloom chat: what RunnableWithMessageHistory
// reads before a run and appends to after it. The chat keeps every branch; the history
// follows its head, so a checkout, regenerate or edit on the chat is what the next run sees.
// A user message at the head (after a regenerate or an edit) is the question being asked:
// LangChain sends its input itself, so it is read as the next run's input, not its history.
import { BaseChatMessageHistory } from "@langchain/core/chat_history";
import type { BaseMessage } from "@langchain/core/messages";
import { BUILD_KEYS, type BuildOptions } from "../context/types.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Message, MessageInput } from "../message.js";
import type { Chat } from "../chat/chat.js";
import { fromOptions, type FromOptions } from "./common.js";
import { fromLangChainMessages, toLangChainMessages } from "./langchain.js";

/**
 * The build options a history's context takes: buildContext's, but the format (LangChain messages) and the input
 * (LangChain sends it).
 */
export type HistoryContextOptions = Omit<BuildOptions, "format" | "input" | "cacheControl" | "providerCounter">;

/** Options of `CtxloomChatMessageHistory`. */
export interface ChatHistoryOptions extends FromOptions {
  /**
   * What `getMessages()` returns. Default true: the context the chat builds for its model
   * (the chat's system prompt first, then what fits the budget: older messages evicted or
   * summarized, recalled ones in the memory message, as the chat is set up), or that context
   * built with these options. false: every message of the branch (`chat.path()`).
   */
  context?: boolean | HistoryContextOptions;
}

const CONTEXT_KEYS = [...BUILD_KEYS.filter((k) => k !== "format" && k !== "input" && k !== "cacheControl"), "recall"];

/**
 * A `BaseChatMessageHistory` backed by a ctxloom chat, for `RunnableWithMessageHistory`
 * (or any LangChain code that takes a history): `getMessages()` gives the chat's context as
 * LangChain messages, `addMessages()` appends at the head (converted by
 * `fromLangChainMessages`, all checked before the first is appended). Branches stay in the
 * chat; the history reads and appends wherever the chat's head is. A user message at the head
 * (after `chat.regenerate(answerId)`, `chat.edit(id, content)`, or `addUserMessage`) is the
 * question waiting for its answer: `getMessages()` leaves it out (LangChain sends its input
 * itself: RunnableWithMessageHistory, memories), and `addMessages()` does not append it again
 * when the batch starts with it (another question goes beside it), so the next answer is a
 * sibling of the old one. While the head stays where it is, `getMessages()` returns the same
 * messages (RunnableWithMessageHistory reads twice a run and counts on it). `clear()` is
 * refused: a chat never loses its history.
 * @throws INVALID_ARGUMENT (not a chat; bad or unknown options)
 */
export class CtxloomChatMessageHistory extends BaseChatMessageHistory {
  /** LangChain's serialization namespace of this class. */
  lc_namespace = ["langchain", "stores", "message", "ctxloom"];
  /** The chat this history reads and appends to. */
  readonly chat: Chat;
  readonly #context: HistoryContextOptions | undefined;
  readonly #from: FromOptions;
  #read: { head: number | null; messages: BaseMessage[] } | undefined;

  constructor(chat: Chat, options?: ChatHistoryOptions) {
    super();
    if (
      chat === null ||
      typeof chat !== "object" ||
      typeof (chat as Partial<Chat>).append !== "function" ||
      typeof (chat as Partial<Chat>).buildContext !== "function"
    ) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `CtxloomChatMessageHistory takes a chat (from chats.create() or chats.open()); got ${describe(chat)}.`,
      );
    }
    const o = checkOptions<ChatHistoryOptions>(options, "CtxloomChatMessageHistory(chat, options)", [
      "context",
      "reasoning",
    ]);
    this.#from = fromOptions(
      o.reasoning === undefined ? undefined : { reasoning: o.reasoning },
      "CtxloomChatMessageHistory",
    );
    if (o.context !== undefined && typeof o.context !== "boolean") {
      const what = "CtxloomChatMessageHistory(chat, options).context";
      checkOptions(o.context, what, CONTEXT_KEYS);
    }
    this.#context =
      o.context === false ? undefined : o.context === true || o.context === undefined ? {} : { ...o.context };
    this.chat = chat;
  }

  /**
   * The chat's context (or its branch) as LangChain messages, oldest first; a question at the
   * head (a user message) left out: the run sends it as its input.
   */
  async getMessages(): Promise<BaseMessage[]> {
    const head = this.chat.head;
    if (this.#read && this.#read.head === head) return [...this.#read.messages];
    const messages =
      this.#context === undefined
        ? toLangChainMessages(this.chat.path())
        : toLangChainMessages(await this.chat.buildForSdk(this.#context));
    if (this.#question() !== undefined) messages.pop(); // the context ends with the head, the newest user turn
    this.#read = { head, messages };
    return [...messages];
  }

  /** The user message at the head, waiting for its answer (undefined: none). */
  #question(): Message | undefined {
    const head = this.chat.head;
    if (head === null) return undefined;
    const m = this.chat.get(head);
    return m.role === "user" ? m : undefined;
  }

  /** Appends a LangChain message at the chat's head. */
  addMessage(message: BaseMessage): Promise<void> {
    return this.addMessages([message]);
  }

  /**
   * Appends LangChain messages at the chat's head, in order; all are converted and checked before
   * the first is appended. A batch starting with the question at the head (the run's input) goes
   * on from it; starting with another question, beside it.
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const inputs = fromLangChainMessages(messages, this.#from);
    const question = this.#question();
    let parent: number | null | undefined;
    if (question !== undefined && inputs[0]?.role === "user") {
      if (sameContent(question, inputs[0])) inputs.shift();
      else parent = question.parentId;
    }
    for (const [i, input] of inputs.entries())
      await this.chat.append(input, i === 0 && parent !== undefined ? { parent } : undefined);
  }

  /** Appends a user message at the head: the question the next run asks (read as its input, not its history). */
  async addUserMessage(message: string): Promise<void> {
    await this.chat.append({ role: "user", content: message });
  }

  /** Appends the model's answer (an assistant message) to the chat. */
  async addAIMessage(message: string): Promise<void> {
    await this.chat.append({ role: "assistant", content: message });
  }

  /** Refused (INVALID_ARGUMENT): a chat keeps its history. Start a new chat for a new session. */
  clear(): Promise<void> {
    return Promise.reject(
      new CtxloomError(
        "INVALID_ARGUMENT",
        "A ctxloom chat never loses its history, so clear() cannot empty it: give the session a new chat " +
          "(chats.create()), delete this one (chats.delete(id)), or move its head with chat.checkout(id).",
      ),
    );
  }
}

const contentOf = (m: Pick<Message, "content" | "parts"> | MessageInput): string =>
  JSON.stringify("parts" in m && m.parts ? m.parts : m.content);

/** Whether an input says what a stored message says. */
const sameContent = (m: Message, input: MessageInput): boolean => contentOf(m) === contentOf(input);
