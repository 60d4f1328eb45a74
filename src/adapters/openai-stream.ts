// OpenAI's streamed answers into a chat: Chat Completions chunks (`stream: true`,
// `chat.completions.stream()`) and Responses stream events, converted as the final objects are
// (fromOpenAIMessages, fromResponseItems). An answer whose stream stopped short (a dropped
// connection, an abort, a failed response) is kept, when asked, with what it said and a mark
// the next request's model reads: it knows the answer was cut.
import { CANCELLED_RESULT } from "../context/tool-units.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Message, MessageInput } from "../message.js";
import type { Chat } from "../chat/chat.js";
import { fromOptions, type FromOptions } from "./common.js";
import { fromOpenAIMessages } from "./openai.js";
import { fromResponseItems } from "./responses.js";
import {
  CompletionState,
  ResponseState,
  type ChatCompletionChunkLike,
  type ResponseStreamEventLike,
  type StreamState,
} from "./openai-stream-state.js";

export type { ChatCompletionChunkLike, ResponseStreamEventLike } from "./openai-stream-state.js";

/** What ends the text of an answer whose stream stopped short: a UI shows it, the next request's model reads it. */
export const CUT_MARK = "[answer cut off]";

/** Options of `openAIStream`. */
export interface OpenAIStreamOptions extends FromOptions {
  /** The message the answer goes under (null: a root). Default: the chat's head when `openAIStream` is called. */
  parent?: number | null;
  /**
   * Keep an answer whose stream stopped short (no finish_reason, no response.completed):
   * `done()` appends what it said, its text ending with CUT_MARK, its calls that were whole
   * (never run) answered "cancelled", calls still streaming left out. Default false: such an
   * answer is not kept.
   */
  persist?: boolean;
}

/** An OpenAI stream being read into a chat. */
export interface OpenAIStream {
  /**
   * Takes the stream's next chunk (Chat Completions) or event (Responses), in order.
   * @throws INVALID_ARGUMENT (not a chunk or an event, the two APIs mixed, after `done()`),
   *   INVALID_TOOL_CALL, and what converting the answer throws (UNSUPPORTED_CONTENT...)
   */
  push(chunk: ChatCompletionChunkLike | ResponseStreamEventLike): Promise<void>;
  /** Whether the stream said it ended (a finish_reason; response.completed or response.incomplete). */
  readonly finished: boolean;
  /** The answer so far, as inputs for `chat.append` (a stream that has not ended: what it said, marked cut). */
  messages(): MessageInput[];
  /**
   * Appends the answer, each message under the one before, and returns them: the whole answer
   * when the stream ended; when it did not, with `persist`, what it said marked cut, else nothing.
   * Call it once the stream is over, whatever way (`finally`); later calls give the same messages.
   */
  done(): Promise<Message[]>;
}

const OPTION_KEYS = ["parent", "persist", "reasoning"] as const;

/**
 * Reads an OpenAI stream into `chat`: `for await (const chunk of stream) await answer.push(chunk)`,
 * then `await answer.done()` (in a `finally`, so that a stream that throws keeps what it said
 * when `persist` is set). Chat Completions chunks (the first choice) or Responses stream events,
 * converted as `fromOpenAIMessages` and `fromResponseItems` convert the final message or items.
 * @throws INVALID_ARGUMENT (not a chat; bad or unknown options), UNKNOWN_MESSAGE (parent)
 * @example
 * const answer = openAIStream(chat, { persist: true });
 * try {
 *   const stream = await client.chat.completions.create({ model, messages, stream: true });
 *   for await (const chunk of stream) await answer.push(chunk);
 * } finally {
 *   await answer.done();
 * }
 */
export function openAIStream(chat: Chat, options?: OpenAIStreamOptions): OpenAIStream {
  if (chat === null || typeof chat !== "object" || typeof (chat as Partial<Chat>).append !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `openAIStream takes a chat (from chats.create() or chats.open()); got ${describe(chat)}.`,
    );
  }
  const o = checkOptions<OpenAIStreamOptions>(options, "openAIStream(chat, options)", OPTION_KEYS);
  const from = fromOptions(o.reasoning === undefined ? undefined : { reasoning: o.reasoning }, "openAIStream");
  if (o.persist !== undefined && typeof o.persist !== "boolean") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `openAIStream(chat, options).persist must be true or false; got ${describe(o.persist)}.`,
    );
  }
  if (o.parent !== undefined && o.parent !== null) chat.get(o.parent); // UNKNOWN_MESSAGE now, not at the end
  const parent = o.parent === undefined ? chat.head : o.parent;
  return new StreamAnswer(chat, parent, o.persist === true, from);
}

class StreamAnswer implements OpenAIStream {
  readonly #chat: Chat;
  readonly #parent: number | null;
  readonly #persist: boolean;
  readonly #from: Required<FromOptions>;
  #state: StreamState | undefined;
  #count = 0;
  #stored: Promise<Message[]> | undefined;

  constructor(chat: Chat, parent: number | null, persist: boolean, from: Required<FromOptions>) {
    this.#chat = chat;
    this.#parent = parent;
    this.#persist = persist;
    this.#from = from;
  }

  get finished(): boolean {
    return this.#state?.finished ?? false;
  }

  async push(chunk: ChatCompletionChunkLike | ResponseStreamEventLike): Promise<void> {
    const where = `openAIStream.push(chunk ${this.#count})`;
    if (this.#stored) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where}: the answer was stored by done(); read each stream into an openAIStream of its own.`,
      );
    }
    const kind = streamKind(chunk, where);
    this.#state ??= kind === "completions" ? new CompletionState() : new ResponseState();
    if ((kind === "completions") !== this.#state instanceof CompletionState) {
      const what = kind === "completions" ? "Chat Completions chunk" : "Responses event";
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} is a ${what} in a stream of the other API; read each stream into an openAIStream of its own.`,
      );
    }
    this.#state.push(chunk, where);
    this.#count++;
    if (this.#state.finished) this.messages(); // what cannot be converted fails at the chunk that ends the stream
  }

  messages(): MessageInput[] {
    return answerInputs(this.#state, !this.finished, this.#from);
  }

  done(): Promise<Message[]> {
    this.#stored ??= this.#store();
    return this.#stored;
  }

  async #store(): Promise<Message[]> {
    if (!this.finished && !this.#persist) return [];
    const out: Message[] = [];
    let parent = this.#parent;
    for (const input of this.messages()) {
      const m = await this.#chat.append(input, { parent });
      out.push(m);
      parent = m.id;
    }
    return out;
  }
}

/** Which API a chunk is of. @throws INVALID_ARGUMENT */
function streamKind(chunk: unknown, where: string): "completions" | "responses" {
  if (chunk !== null && typeof chunk === "object" && !Array.isArray(chunk)) {
    const c = chunk as Record<string, unknown>;
    if (c.object === "chat.completion.chunk" || (c.object === undefined && Array.isArray(c.choices)))
      return "completions";
    if (typeof c.type === "string" && (c.type.startsWith("response.") || c.type === "error")) return "responses";
  }
  throw new CtxloomError(
    "INVALID_ARGUMENT",
    `${where} must be a Chat Completions chunk ({ object: "chat.completion.chunk", choices }) or a Responses stream ` +
      `event ({ type: "response.…" }); got ${describe(chunk)}.`,
  );
}

/**
 * The answer of a stream's state as inputs for append. A cut one: its calls (whole, never run)
 * answered CANCELLED_RESULT, its last text ending with CUT_MARK; none when it said nothing.
 */
function answerInputs(state: StreamState | undefined, cut: boolean, from: Required<FromOptions>): MessageInput[] {
  if (state === undefined) return [];
  const { completion, items } = state.answer(cut);
  const said = (m: MessageInput) => m.toolCalls !== undefined || m.content.length > 0;
  const inputs = (completion ? fromOpenAIMessages(completion, from) : fromResponseItems(items!, from)).filter(said);
  if (!cut) return inputs;
  const out: MessageInput[] = [];
  for (const input of inputs) {
    out.push(input);
    for (const call of input.toolCalls ?? [])
      out.push({ role: "tool", toolCallId: call.id, content: CANCELLED_RESULT });
  }
  const last = out[out.length - 1];
  if (last !== undefined && last.role === "assistant") {
    const content = last.content;
    last.content =
      typeof content === "string"
        ? `${content}\n\n${CUT_MARK}`
        : [...content, { type: "text", text: `\n\n${CUT_MARK}` }];
  }
  return out;
}

/**
 * A Chat Completions stream's chunks (`stream: true`) to inputs for `chat.append`: the first
 * choice's answer, as `fromOpenAIMessages` converts the final message. Chunks that do not reach a
 * finish_reason give what they said, its text ending with CUT_MARK.
 * @throws INVALID_ARGUMENT, INVALID_TOOL_CALL, UNSUPPORTED_CONTENT
 */
export function fromChatCompletionChunks(
  chunks: readonly ChatCompletionChunkLike[],
  options?: FromOptions,
): MessageInput[] {
  return fromChunks(chunks, options, "fromChatCompletionChunks", "completions");
}

/**
 * A Responses stream's events to inputs for `chat.append`: the output items, as
 * `fromResponseItems` converts them. Events that do not reach response.completed (or
 * response.incomplete) give the items done and the text of a message still streaming, ending
 * with CUT_MARK. @throws INVALID_ARGUMENT, UNSUPPORTED_CONTENT
 */
export function fromResponseStreamEvents(
  events: readonly ResponseStreamEventLike[],
  options?: FromOptions,
): MessageInput[] {
  return fromChunks(events, options, "fromResponseStreamEvents", "responses");
}

function fromChunks(
  chunks: readonly unknown[],
  options: FromOptions | undefined,
  what: string,
  kind: "completions" | "responses",
): MessageInput[] {
  const from = fromOptions(options, what);
  if (!Array.isArray(chunks)) {
    throw new CtxloomError("INVALID_ARGUMENT", `${what} takes the stream's list of chunks; got ${describe(chunks)}.`);
  }
  const state = kind === "completions" ? new CompletionState() : new ResponseState();
  chunks.forEach((chunk: unknown, i) => {
    const where = `${what}(chunks)[${i}]`;
    if (streamKind(chunk, where) !== kind)
      throw new CtxloomError("INVALID_ARGUMENT", `${where} is a chunk of the other API's stream.`);
    state.push(chunk, where);
  });
  return answerInputs(state, !state.finished, from);
}
