// A useChat backend in one call: what DefaultChatTransport posts becomes the chat's turn (the
// chat opened or created under the client's id, the user's message appended or a regeneration
// branched), the context streamText sends, and the options of toUIMessageStreamResponse that
// give the answer ctxloom's id and store it, every step of it, when the stream ends.
import type { ToolSet, UIMessageStreamOptions } from "ai";
import { BUILD_KEYS, type BuildOptions, type ContextWindow } from "../context/types.js";
import type { OpenAIMessage } from "../context/format.js";
import { CtxloomError, checkInteger, checkKeys, checkOptions, describe } from "../errors.js";
import type { Message } from "../message.js";
import type { Chat } from "../chat/chat.js";
import { checkNewChatId } from "../chat/chat-list.js";
import { CREATE_KEYS } from "../chat/create-options.js";
import type { CreateChatOptions, UserChats } from "../chat/user-chats.js";
import { toModelContext, type ModelContext } from "./ai-sdk.js";
import { DEFAULT_WAIT_MS, StreamingTurn, storeAnswer, waitForTurns } from "./ai-sdk-answer.js";
import { resolveToolSet } from "./ai-sdk-tools.js";
import { Replay } from "./ai-sdk-resume.js";
import { fromOptions, type ReasoningMode } from "./common.js";
import { placeOf, type ChatUIMessage, type ChatUIMetadata } from "./ui-messages.js";
import { readBody } from "./ai-sdk-body.js";
import { applyTurn, planTurn, type TurnPlan } from "./ai-sdk-turn.js";
import { reportedInputTokens } from "../models/calibration.js";

/** Options of `chatTurn`. */
export interface ChatTurnOptions {
  /**
   * How a chat the request starts is created: model, system prompt, title, metadata... (its id is the request's: `id`
   * is refused).
   */
  create?: Omit<CreateChatOptions, "id">;
  /**
   * How the context is built (any build option but the format, the input and cacheControl): memory, maxMessages, tools,
   * recall...
   */
  context?: Omit<BuildOptions, "format" | "cacheControl" | "input" | "providerCounter">;
  /** Reasoning parts of the answer: "keep" (default), "drop" or "refuse", as `fromUIMessages` takes them. */
  reasoning?: ReasoningMode;
  /**
   * How long the chat's later turns (in this process) wait for this turn's answer once its
   * stream has gone silent, in ms (default 10 000; 0: they do not wait for it). While the stream
   * sends parts, and while its answer is being stored, they wait.
   */
  waitMs?: number;
  /**
   * Keep the answer's events while it streams, for a client that reloads to resume it
   * (`useChat({ resume: true })`, answered by `resumeTurn`). The answer then goes on when the
   * client goes away, so that useChat's `stop()` no longer stops it (as with the AI SDK's own
   * resumable streams). Default false.
   */
  resumable?: boolean;
}

/** What `toUIMessageStreamResponse` takes from a turn (`consumeSseStream` with `resumable`). */
export type ChatTurnStream = Required<
  Pick<UIMessageStreamOptions<ChatUIMessage>, "originalMessages" | "generateMessageId" | "messageMetadata" | "onEnd">
> & {
  consumeSseStream?: (options: { stream: ReadableStream<string> }) => void;
};

/** One request of useChat, ready to answer. */
export interface ChatTurn {
  /** The user's chat of the request's id (opened, or created with `options.create`). */
  chat: Chat;
  /** `{ instructions, messages }` built from the chat within the model's budget: spread it into streamText. */
  context: ModelContext;
  /** Pass it to `result.toUIMessageStreamResponse(turn.stream)`. */
  stream: ChatTurnStream;
  /** The message the answer goes under: the user's message (or, for an answer gone on with, its last step). */
  parentId: number;
  /**
   * The id the answer's first message will have, and so the streamed UIMessage's (its decimal
   * string), unless the turn goes on with an answer the client sent back, whose id it keeps.
   */
  messageId: number;
  /**
   * The answer's messages once the stream has ended and they are stored (none for an answer
   * aborted before it said anything, or a cancelled turn). Pending while the stream has not ended.
   */
  saved(): Promise<Message[]>;
  /**
   * Gives the turn up (a route that will not send its response): the chat's later turns stop
   * waiting for it, and its stream, if one still ends, stores nothing; `saved()` resolves with
   * none. The user's message stays in the chat (a retried request does not append it again).
   */
  cancel(): void;
}

const OPTION_KEYS = ["create", "context", "reasoning", "waitMs", "resumable"] as const;
/** The longest `waitMs` taken: an hour. */
const MAX_WAIT_MS = 3_600_000;
const CREATE_OPTION_KEYS = CREATE_KEYS.filter((k) => k !== "id");
const CONTEXT_KEYS = [...BUILD_KEYS.filter((k) => k !== "format" && k !== "input" && k !== "cacheControl"), "recall"];
/** What the context options of a turn cannot hold, and why. */
const NOT_IN_CONTEXT: Record<string, string> = {
  format:
    "the context is built for the AI SDK ({ instructions, messages }, spread into streamText), whatever the provider",
  input: "the user's message is the request's, appended to the chat",
  cacheControl: "set Anthropic's cache marks with the AI SDK's providerOptions",
};

/**
 * Answers a request of the AI SDK's chat client (`useChat`, or `Chat` with DefaultChatTransport)
 * from its body: the whole list `{ id, messages, trigger, messageId }` (DefaultChatTransport's
 * default), or the last message alone `{ id, message, trigger?, messageId?, parentId? }`
 * (`prepareSendMessagesRequest`; `parentId` the UIMessage id of the message before it, else it
 * goes under the chat's head). Opens the user's chat of that id (or creates it with
 * `options.create`), appends the new user message under the message the client shows before it
 * (under its UIMessage id as append key: a retried request appends it once), branches a
 * regeneration or an edit beside the old answer, goes on with an answer the client sends back
 * (client-side tools' outputs, or the answer cut back to a step whose next one is regenerated),
 * and builds the context. The answer streams as one UIMessage whose id is the id its first
 * message will get in the chat, with `metadata` ({ messageId, parentId, branch, question })
 * telling the UI it is "2 / 2", and where its user message is; when the stream ends, every step
 * of it (tool calls, their results, the text) is appended under the user's message, whatever
 * else moved the head meanwhile (calls to client-side tools left open for their outputs). Other
 * keys of the body (the transport's `body` option) are left to the caller.
 *
 * A refused request changes nothing: the body, the options, every user message it adds (its
 * parts, its size against the model's window) and the context's options are checked before the
 * chat is created or anything appended. What only the build can tell comes after the user's
 * message is appended, and leaves it there (a valid message of the conversation; the request
 * sent again appends it once): the newest turn not fitting what the window leaves it
 * (MESSAGE_TOO_LARGE, with a large `maxOutputTokens` say), a summarizer or an embedder failing,
 * the store.
 *
 * A turn waits for the chat's turns before it in this process whose answer is streaming (its
 * client may show that answer), until the answer is stored or the stream has sent nothing for
 * `waitMs`. A turn whose stream was never handed to the AI SDK (a route that failed after
 * chatTurn) holds no one; `turn.cancel()` releases one that was.
 * @throws INVALID_ARGUMENT (a body useChat does not send, bad options), and the codes of
 *   create, append and buildContext
 */
export async function chatTurn(chats: UserChats, body: unknown, options?: ChatTurnOptions): Promise<ChatTurn> {
  if (chats === null || typeof chats !== "object" || typeof (chats as Partial<UserChats>).open !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `chatTurn takes a user's chats (loom.user(id)) first; got ${describe(chats)}.`,
    );
  }
  const o = checkTurnOptions(options);
  const from = fromOptions(o.reasoning === undefined ? undefined : { reasoning: o.reasoning }, "chatTurn");
  const request = readBody(body);
  const build: BuildOptions = { ...o.context };
  if (build.tools !== undefined && !Array.isArray(build.tools)) {
    build.tools = (await resolveToolSet(build.tools as ToolSet)) as BuildOptions["tools"];
  }
  let chat = await opened(chats, request.id);
  if (chat === null) {
    checkNewChatId(request.id);
    // Everything the request adds and builds, checked for the chat create() would make, before it is made.
    await chats.preflight(
      o.create,
      planTurn(null, request, from).steps.map((s) => s.input),
      build,
    );
    chat = await createChat(chats, request.id, o.create);
  }
  await waitForTurns(chat);
  // Planned and checked with nothing awaited before the first append: the chat as it is now.
  // The first message's size is append's own check (nothing is written before it): not counted twice.
  const plan = planTurn(chat, request, from);
  chat.preflight(
    plan.steps.slice(1).map((s) => s.input),
    build,
  );
  const parentId = await applyTurn(chat, plan);
  const built = await contextAt(chat, parentId, build);
  const context = toModelContext(built);
  let observed = false;
  const messageId = chat.messageCount;
  const metadata = answerMetadata(chat, plan, parentId, messageId);
  const answer = new StreamingTurn(chat, o.waitMs ?? DEFAULT_WAIT_MS);
  const replay = o.resumable === true ? new Replay(chat) : undefined;
  let done!: (messages: Message[] | Promise<Message[]>) => void;
  const saved = new Promise<Message[]>((resolve) => (done = resolve));
  saved.catch(() => undefined);
  const stream: ChatTurnStream = {
    originalMessages: request.messages,
    generateMessageId: () => {
      answer.alive(); // handed to the AI SDK
      return String(messageId);
    },
    messageMetadata: ({ part }) => {
      answer.alive();
      // The first step answers the context built here: its usage calibrates the chat's counts.
      const usage = (part as { usage?: unknown }).usage;
      if (!observed && part.type === "finish-step" && reportedInputTokens(usage) !== undefined) {
        observed = true;
        chat.observeUsage(built, usage);
      }
      return part.type === "start" ? metadata : undefined;
    },
    onEnd: async ({ responseMessage, isAborted, outcome, finishReason }) => {
      if (answer.ended) return; // cancelled
      answer.alive();
      // A normal end on tool calls without results: client-side tools, whose outputs the next request brings.
      const awaitsClient = !isAborted && outcome.status === "completed" && finishReason === "tool-calls";
      const skip = plan.continues?.parts ?? 0;
      const storing = storeAnswer(chat, parentId, responseMessage, {
        reasoning: from.reasoning,
        skip,
        keepOpen: awaitsClient,
      });
      done(storing);
      try {
        await storing;
      } finally {
        answer.end();
        replay?.settled();
      }
    },
  };
  if (replay) stream.consumeSseStream = ({ stream: events }) => void replay.record(events);
  const cancel = (): void => {
    if (answer.ended) return;
    answer.end();
    replay?.settled();
    done([]);
  };
  return { chat, context, stream, parentId, messageId, saved: () => saved, cancel };
}

/** The options of chatTurn, and of its groups, checked by their keys. */
function checkTurnOptions(options: unknown): Partial<ChatTurnOptions> {
  const what = "chatTurn(chats, body, options)";
  const o = checkOptions<ChatTurnOptions>(options, what, OPTION_KEYS);
  if (o.create !== undefined) {
    const create = checkOptions<CreateChatOptions>(o.create, `${what}.create`);
    if ("id" in create) {
      const why = "the chat's id is the request's body.id (useChat's chat id); leave it out";
      throw new CtxloomError("INVALID_ARGUMENT", `${what}.create has no option "id": ${why}.`);
    }
    checkKeys(create, CREATE_OPTION_KEYS, `${what}.create`);
  }
  if (o.context !== undefined) {
    const context = checkOptions<BuildOptions>(o.context, `${what}.context`);
    for (const key in context) {
      if (!Object.hasOwn(NOT_IN_CONTEXT, key)) continue;
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${what}.context has no option ${JSON.stringify(key)}: ${NOT_IN_CONTEXT[key]}.`,
      );
    }
    checkKeys(context, CONTEXT_KEYS, `${what}.context`);
  }
  if (o.waitMs !== undefined) checkInteger(o.waitMs, `${what}.waitMs`, 0, MAX_WAIT_MS);
  if (o.resumable !== undefined && typeof o.resumable !== "boolean") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.resumable must be true or false; got ${describe(o.resumable)}.`,
    );
  }
  return o;
}

/**
 * The user's chat of this id (checked before: a bad id is refused, never taken for a chat the user lacks), or null when
 * the user has none.
 */
async function opened(chats: UserChats, id: string): Promise<Chat | null> {
  try {
    return await chats.open(id);
  } catch (error) {
    if (error instanceof CtxloomError && error.code === "UNKNOWN_CHAT") return null;
    throw error;
  }
}

/** The chat created under this id (two requests creating it at once: one creates, the other opens). */
async function createChat(chats: UserChats, id: string, options: ChatTurnOptions["create"]): Promise<Chat> {
  try {
    return await chats.create({ ...(options ?? {}), id });
  } catch (error) {
    if (error instanceof CtxloomError && error.code === "CHAT_EXISTS") return chats.open(id);
    throw error;
  }
}

/**
 * The streamed answer's metadata: a new answer's place (last among its parent's children) and
 * its question's; an answer gone on with keeps its own place, the new step last among its siblings.
 */
function answerMetadata(chat: Chat, plan: TurnPlan, parentId: number, messageId: number): ChatUIMetadata {
  const ids = [...chat.children(parentId), messageId];
  const step = { messageId, parentId, branch: { index: ids.length - 1, count: ids.length, ids } };
  const first = plan.continues?.answerId;
  if (first === undefined) {
    const parent = chat.get(parentId);
    return parent.role === "user" ? { ...step, question: placeOf(chat, parentId) } : step;
  }
  const steps = [];
  for (let id = parentId; id !== first; id = chat.get(id).parentId!) {
    // each later step, as toUIMessages draws them
    if (chat.get(id).role === "assistant") steps.unshift(placeOf(chat, id));
  }
  const question = chat.get(first).parentId;
  const out: ChatUIMetadata = { ...placeOf(chat, first), steps: [...steps, step] };
  if (question !== null && chat.get(question).role === "user") out.question = placeOf(chat, question);
  return out;
}

/**
 * The context of this turn, built at `parentId` whatever another request does to the head
 * meanwhile (it ends with this turn's message); the head is moved there too, as the client shows it.
 */
async function contextAt(chat: Chat, parentId: number, options: BuildOptions): Promise<ContextWindow<OpenAIMessage>> {
  if (chat.head !== parentId) await chat.checkout(parentId);
  return (await chat.buildForSdk(
    options as BuildOptions & { format?: "openai" },
    parentId,
  )) as ContextWindow<OpenAIMessage>;
}
