// Resuming a useChat answer after a reload (the AI SDK's resumable streams, `useChat({ resume:
// true })`), in the process that streams it: a resumable turn keeps the server-sent events it has
// sent (toUIMessageStreamResponse's `consumeSseStream`), and the client's GET of
// `<api>/<chatId>/stream` gets them again, then the rest as it comes, until the answer is stored.
import { UI_MESSAGE_STREAM_HEADERS } from "ai";
import { CtxloomError, describe } from "../errors.js";
import type { Chat } from "../chat/chat.js";
import type { UserChats } from "../chat/user-chats.js";

/** Per chat, its newest resumable answer while it streams or is being stored. */
const replays = new WeakMap<Chat, Replay>();

/** A resumable answer's events: those sent so far, and a wake-up for readers waiting for more. */
export class Replay {
  readonly #chat: Chat;
  readonly #events: string[] = [];
  #ended = false;
  #stored = false;
  #waiting: (() => void)[] = [];

  constructor(chat: Chat) {
    this.#chat = chat;
  }

  /** Keeps a copy of the stream's events (what consumeSseStream hands over), from now until it ends. */
  async record(stream: ReadableStream<string>): Promise<void> {
    replays.set(this.#chat, this);
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.#events.push(value);
        this.#wake();
      }
    } catch {
      // The stream failed: what was sent is all there is.
    } finally {
      this.#ended = true;
      this.#wake();
      this.#forget();
    }
  }

  /** The answer is stored (or the turn given up): once its stream has ended too, no one resumes it. */
  settled(): void {
    this.#stored = true;
    this.#forget();
  }

  /** The events from the first, then each as it comes, as a response body. */
  body(): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let next = 0;
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        while (next >= this.#events.length && !this.#ended)
          await new Promise<void>((resolve) => this.#waiting.push(resolve));
        if (next < this.#events.length) controller.enqueue(encoder.encode(this.#events[next++]!));
        else controller.close();
      },
    });
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }

  #forget(): void {
    if (this.#ended && this.#stored && replays.get(this.#chat) === this) replays.delete(this.#chat);
  }
}

/**
 * The response to useChat's `resumeStream()` (`useChat({ resume: true })` on a page load: a GET
 * of `<api>/<chatId>/stream`) for the user's chat `chatId`: its answer streaming in this process
 * from a turn made with `chatTurn(..., { resumable: true })`, from its first event, then the rest
 * as it comes; 204 (nothing to resume) when none is, or the user has no such chat.
 * @throws INVALID_ARGUMENT (not a user's chats, a chat id that is no string)
 */
export async function resumeTurn(chats: UserChats, chatId: string): Promise<Response> {
  if (chats === null || typeof chats !== "object" || typeof (chats as Partial<UserChats>).open !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `resumeTurn takes a user's chats (loom.user(id)) first; got ${describe(chats)}.`,
    );
  }
  if (typeof chatId !== "string") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `resumeTurn takes the chat's id (a string, useChat's id); got ${describe(chatId)}.`,
    );
  }
  let chat: Chat;
  try {
    chat = await chats.open(chatId);
  } catch (error) {
    const none = error instanceof CtxloomError && (error.code === "UNKNOWN_CHAT" || error.code === "INVALID_ARGUMENT");
    if (none) return new Response(null, { status: 204 });
    throw error;
  }
  const replay = replays.get(chat);
  if (replay === undefined) return new Response(null, { status: 204 });
  return new Response(replay.body(), { headers: UI_MESSAGE_STREAM_HEADERS });
}
