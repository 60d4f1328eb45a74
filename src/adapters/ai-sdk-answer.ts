// A useChat turn's answer: stored in the chat when its stream ends, and, while it streams, waited
// for by the chat's later turns in this process (their request may show it), for as long as
// the stream is alive. A turn whose stream never started, or has gone silent, holds no one.
import type { UIMessage } from "ai";
import { CANCELLED_RESULT } from "../context/tool-units.js";
import type { Message, MessageInput } from "../message.js";
import type { Chat } from "../chat/chat.js";
import type { ReasoningMode } from "./common.js";
import { fromUIMessages } from "./ui-messages.js";

/** How long a later turn waits for a turn whose stream has sent nothing, by default (ms). */
export const DEFAULT_WAIT_MS = 10_000;

/** Per chat, the turns whose answer is streaming or being stored. */
const streaming = new WeakMap<Chat, Set<StreamingTurn>>();

/**
 * A turn's answer as the chat's later turns see it: alive from the moment its stream is handed
 * to the AI SDK until the answer is stored (or the turn cancelled); a sign of life (a part of the
 * stream, the end being stored) keeps it so for `waitMs` more.
 */
export class StreamingTurn {
  readonly #chat: Chat;
  readonly #waitMs: number;
  #lastSign = 0;
  #ended = false;
  #end!: () => void;
  readonly #ending = new Promise<void>((resolve) => (this.#end = resolve));

  constructor(chat: Chat, waitMs: number) {
    this.#chat = chat;
    this.#waitMs = waitMs;
  }

  /** The stream is alive: later turns wait for it (until the end, or `waitMs` of silence). */
  alive(): void {
    if (this.#ended) return;
    this.#lastSign = Date.now();
    let turns = streaming.get(this.#chat);
    if (!turns) streaming.set(this.#chat, (turns = new Set()));
    turns.add(this);
  }

  /** Stored, failed or cancelled: no one waits for it any more. */
  end(): void {
    this.#ended = true;
    this.#forget();
    this.#end();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Waits until the turn ends or has been silent for `waitMs`. */
  async wait(): Promise<void> {
    for (;;) {
      const left = this.#lastSign + this.#waitMs - Date.now();
      if (this.#ended) return;
      if (left <= 0) {
        this.#forget(); // silent: a stream never read nor cancelled (a sign of life brings it back)
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.#ending, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
  }

  #forget(): void {
    const turns = streaming.get(this.#chat);
    turns?.delete(this);
    if (turns?.size === 0) streaming.delete(this.#chat);
  }
}

/**
 * Waits for the chat's turns streaming in this process: each until its answer is stored, or it has been silent for its
 * `waitMs`.
 */
export async function waitForTurns(chat: Chat): Promise<void> {
  const turns = streaming.get(chat);
  if (!turns) return;
  for (const turn of [...turns]) await turn.wait();
}

/** Tool parts a stream left unfinished (aborted while the model wrote a call's input): nothing to keep. */
const UNFINISHED = new Set(["input-streaming", "approval-requested", "approval-responded"]);

/**
 * How an answer is stored: its reasoning, the parts the stream carried over (a continued answer's), and open calls
 * kept.
 */
export interface StoreOptions {
  reasoning: ReasoningMode;
  /** The response's first parts already in the chat (an answer gone on with): left out. */
  skip: number;
  /** Leave calls without a result open (client-side tools, whose outputs the next request brings). */
  keepOpen: boolean;
}

/**
 * Appends the answer the stream sent (every step: tool calls, results, text) under `parentId`,
 * each under the one before. A tool call left without a result (aborted, or a tool with no
 * execute) gets CANCELLED_RESULT, so that the next user message can go on, unless `keepOpen`.
 */
export async function storeAnswer(
  chat: Chat,
  parentId: number,
  response: UIMessage,
  options: StoreOptions,
): Promise<Message[]> {
  const own = response.parts.slice(options.skip);
  const parts = own.filter((p) => {
    const state = (p as { state?: string }).state;
    return (
      p.type !== "step-start" &&
      !(state !== undefined && UNFINISHED.has(state)) &&
      !(p.type === "text" && p.text.length === 0)
    );
  });
  if (parts.length === 0) return []; // aborted before a word
  const kept = own.filter((p) => parts.includes(p) || p.type === "step-start");
  const inputs: MessageInput[] = fromUIMessages(
    { ...response, role: "assistant", parts: kept },
    { reasoning: options.reasoning },
  );
  const out: Message[] = [];
  let parent = parentId;
  for (const input of inputs) {
    const m = await chat.append(input, { parent });
    out.push(m);
    parent = m.id;
  }
  const last = out[out.length - 1];
  if (last?.toolCalls && !options.keepOpen) {
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
