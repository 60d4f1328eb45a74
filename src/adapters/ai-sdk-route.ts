// A useChat backend in one call: what DefaultChatTransport posts becomes the chat's turn (the
// chat opened or created under the client's id, the user's message appended or a regeneration
// branched), the context streamText sends, and the options of toUIMessageStreamResponse that
// give the answer ctxloom's id and store it, every step of it, when the stream ends.
import type { ToolSet, UIMessage, UIMessageStreamOptions } from "ai";
import type { BuildOptions } from "../context/types.js";
import { CANCELLED_RESULT } from "../context/tool-units.js";
import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { Message, MessageInput } from "../message.js";
import type { Chat } from "../chat/chat.js";
import type { CreateChatOptions, UserChats } from "../chat/user-chats.js";
import { toModelContext, type ModelContext } from "./ai-sdk.js";
import { resolveToolSet } from "./ai-sdk-tools.js";
import { fromOptions, objectAt, type ReasoningMode } from "./common.js";
import { fromUIMessages, type ChatUIMessage, type ChatUIMetadata } from "./ui-messages.js";
import { placeTurn, type TurnRequest } from "./ai-sdk-turn.js";

/** Options of `chatTurn`. */
export interface ChatTurnOptions {
  /** How a chat the request starts is created (its id is the request's): model, system prompt, title, metadata... */
  create?: Omit<CreateChatOptions, "id">;
  /** How the context is built (any build option but the format): memory, maxMessages, tools, recall... */
  context?: Omit<BuildOptions, "format" | "cacheControl" | "input">;
  /** Reasoning parts of the answer: "keep" (default), "drop" or "refuse", as `fromUIMessages` takes them. */
  reasoning?: ReasoningMode;
}

/** What `toUIMessageStreamResponse` takes from a turn. */
export type ChatTurnStream = Required<Pick<UIMessageStreamOptions<ChatUIMessage>, "originalMessages" | "generateMessageId" | "messageMetadata" | "onEnd">>;

/** One request of useChat, ready to answer. */
export interface ChatTurn {
  /** The user's chat of the request's id (opened, or created with `options.create`). */
  chat: Chat;
  /** `{ instructions, messages }` built from the chat within the model's budget: spread it into streamText. */
  context: ModelContext;
  /** Pass it to `result.toUIMessageStreamResponse(turn.stream)`. */
  stream: ChatTurnStream;
  /** The user message the answer goes under. */
  parentId: number;
  /** The id the answer's first message will have, and so the streamed UIMessage's (its decimal string). */
  messageId: number;
  /** The answer's messages once the stream has ended and they are stored (none for an answer aborted before it said anything). */
  saved(): Promise<Message[]>;
}

const OPTION_KEYS = ["create", "context", "reasoning"] as const;
/** Per chat, the answer being stored: a request waits for the one before it. */
const saving = new WeakMap<Chat, Promise<unknown>>();

/**
 * Answers a request of the AI SDK's chat client (`useChat`, or `Chat` with DefaultChatTransport)
 * from its body `{ id, messages, trigger, messageId }`: opens the user's chat of that id (or
 * creates it with `options.create`), appends the new user message under the message the client
 * shows before it (under its UIMessage id as append key: a retried request appends it once),
 * branches a regeneration or an edit beside the old answer, and builds the context. The answer
 * streams as one UIMessage whose id is the id its first message will get in the chat, with
 * `metadata` ({ messageId, parentId, branch }) telling the UI it is "2 / 2"; when the stream
 * ends, every step of it (tool calls, their results, the text) is appended under the user's
 * message, whatever else moved the head meanwhile. Other keys of the body (the transport's
 * `body` option) are left to the caller.
 * @throws INVALID_ARGUMENT (a body useChat does not send, bad options), and the codes of
 *   create, append and buildContext
 */
export async function chatTurn(chats: UserChats, body: unknown, options?: ChatTurnOptions): Promise<ChatTurn> {
  if (chats === null || typeof chats !== "object" || typeof (chats as Partial<UserChats>).open !== "function") {
    throw new CtxloomError("INVALID_ARGUMENT", `chatTurn takes a user's chats (loom.user(id)) first; got ${describe(chats)}.`);
  }
  const o = checkOptions<ChatTurnOptions>(options, "chatTurn(chats, body, options)", OPTION_KEYS);
  const from = fromOptions(o.reasoning === undefined ? undefined : { reasoning: o.reasoning }, "chatTurn");
  const request = readBody(body);
  const chat = await openOrCreate(chats, request.id, o.create);
  await saving.get(chat)?.catch(() => undefined);
  const parentId = await placeTurn(chat, request, from);
  const context = await contextAt(chat, parentId, o.context ?? {});
  const messageId = chat.messageCount;
  const siblings = [...chat.children(parentId), messageId];
  const metadata: ChatUIMetadata = { messageId, parentId, branch: { index: siblings.length - 1, count: siblings.length, ids: siblings } };
  let done!: (messages: Message[] | Promise<Message[]>) => void;
  const saved = new Promise<Message[]>((resolve) => (done = resolve));
  saved.catch(() => undefined);
  saving.set(chat, saved);
  const stream: ChatTurnStream = {
    originalMessages: request.messages,
    generateMessageId: () => String(messageId),
    messageMetadata: ({ part }) => (part.type === "start" ? metadata : undefined),
    onEnd: async ({ responseMessage }) => {
      const storing = storeAnswer(chat, parentId, responseMessage, from.reasoning);
      done(storing);
      await storing;
    },
  };
  return { chat, context, stream, parentId, messageId, saved: () => saved };
}

/** The body as DefaultChatTransport posts it, checked. */
function readBody(body: unknown): TurnRequest {
  const b = objectAt(body, "chatTurn(chats, body)");
  if (typeof b.id !== "string") throw new CtxloomError("INVALID_ARGUMENT", `The request's body.id must be the chat's id (a string, as useChat sends it); got ${describe(b.id)}.`);
  if (!Array.isArray(b.messages)) throw new CtxloomError("INVALID_ARGUMENT", `The request's body.messages must be the chat's UIMessages; got ${describe(b.messages)}.`);
  if (b.trigger !== "submit-message" && b.trigger !== "regenerate-message") {
    throw new CtxloomError("INVALID_ARGUMENT", `The request's body.trigger must be "submit-message" or "regenerate-message" (a resumed stream is a GET of its own); got ${describe(b.trigger)}.`);
  }
  if (b.messageId !== undefined && b.messageId !== null && typeof b.messageId !== "string") {
    throw new CtxloomError("INVALID_ARGUMENT", `The request's body.messageId must be a UIMessage id; got ${describe(b.messageId)}.`);
  }
  b.messages.forEach((m, i) => {
    const u = objectAt(m, `body.messages[${i}]`);
    if (typeof u.id !== "string" || (u.role !== "user" && u.role !== "assistant" && u.role !== "system") || !Array.isArray(u.parts)) {
      throw new CtxloomError("INVALID_ARGUMENT", `body.messages[${i}] must be a UIMessage ({ id, role, parts }); got ${describe(m)}.`);
    }
  });
  return { id: b.id, messages: b.messages as ChatUIMessage[], trigger: b.trigger, messageId: typeof b.messageId === "string" ? b.messageId : undefined };
}

/** The user's chat of this id, created when it has none (two requests creating it at once: one creates, the other opens). */
async function openOrCreate(chats: UserChats, id: string, create: ChatTurnOptions["create"]): Promise<Chat> {
  try {
    return await chats.open(id);
  } catch (error) {
    if (!(error instanceof CtxloomError && (error.code === "UNKNOWN_CHAT" || error.code === "INVALID_ARGUMENT"))) throw error;
  }
  try {
    return await chats.create({ ...(create ?? {}), id });
  } catch (error) {
    if (error instanceof CtxloomError && error.code === "CHAT_EXISTS") return chats.open(id);
    throw error;
  }
}

/**
 * The context with the head at `parentId`: checked out first, and built again when another
 * request moved the head between the two (the context must end with this turn's message).
 */
async function contextAt(chat: Chat, parentId: number, build: NonNullable<ChatTurnOptions["context"]>): Promise<ModelContext> {
  const options: BuildOptions = { ...build };
  if (build.tools !== undefined && !Array.isArray(build.tools)) options.tools = (await resolveToolSet(build.tools as ToolSet)) as BuildOptions["tools"];
  for (let attempt = 0; ; attempt++) {
    if (chat.head !== parentId) await chat.checkout(parentId);
    const context = await chat.buildContext(options as BuildOptions & { format?: "openai" });
    if (context.conversation[context.conversation.length - 1]?.id === parentId || attempt >= 10) return toModelContext(context);
  }
}

/** Tool parts a stream left unfinished (aborted while the model wrote a call's input): nothing to keep. */
const UNFINISHED = new Set(["input-streaming", "approval-requested", "approval-responded"]);

/**
 * Appends the answer the stream sent (every step: tool calls, results, text) under the user's
 * message, each under the one before. A tool call left without a result (aborted, or a tool
 * with no execute) gets CANCELLED_RESULT, so that the next user message can go on.
 */
async function storeAnswer(chat: Chat, parentId: number, response: UIMessage, reasoning: ReasoningMode): Promise<Message[]> {
  const parts = response.parts.filter((p) => {
    const state = (p as { state?: string }).state;
    return p.type !== "step-start" && !(state !== undefined && UNFINISHED.has(state)) && !(p.type === "text" && p.text.length === 0);
  });
  if (parts.length === 0) return []; // aborted before a word
  const inputs: MessageInput[] = fromUIMessages({ ...response, role: "assistant", parts: response.parts.filter((p) => parts.includes(p) || p.type === "step-start") }, { reasoning });
  const out: Message[] = [];
  let parent = parentId;
  for (const input of inputs) {
    const m = await chat.append(input, { parent });
    out.push(m);
    parent = m.id;
  }
  const last = out[out.length - 1];
  if (last?.toolCalls) {
    const answered = new Set(out.filter((m) => m.role === "tool").map((m) => m.toolCallId));
    for (const call of last.toolCalls) {
      if (answered.has(call.id)) continue;
      const m = await chat.append({ role: "tool", toolCallId: call.id, content: CANCELLED_RESULT }, { parent });
      out.push(m);
      parent = m.id;
    }
  }
  return out;
}
