// The read tool: a model gets back a tool result that its context sends cleared or cut, by the
// message id the placeholder or the marker names, a page at a time within a token cap. It is
// answered from the chat, which keeps every result whole. Each SDK's tool (aiSdkReadTool,
// openAIReadTool, anthropicReadTool, langchainReadTool) answers its calls with `answerReadTool`:
// a call the chat refuses goes back to the model as a tool error, never as an exception.
import type { Chat } from "../chat/chat.js";
import { headEnd, measureOf } from "../context/truncate.js";
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { MAX_TOKENS } from "../message.js";
import type { TokenCounter } from "../tokens/types.js";
import { TOOL_ERROR_PREFIX } from "./anthropic.js";

/** The name the read tool has in every SDK's shape. */
export const READ_TOOL_NAME = "readToolResult";

/** Options of the read tool and of `readToolResult`. */
export interface ReadToolOptions {
  /**
   * The most tokens of the result a page holds, by the chat's counter. Default 4,000, or an
   * eighth of what a request to the chat's model may hold when that is less (so that a page is
   * never sent cut). At least 16.
   */
  maxTokens?: number;
}

/** What the model asks the read tool for: a tool result by its message id, and a page of it (default 1). */
export interface ToolResultRequest {
  /** The message id a cleared or cut tool result's marker names. */
  id: number;
  /** The page, from 1 (default 1). */
  page?: number;
}

/**
 * A page of a tool result: its text and where it sits (page `page` of `pages`; the pages joined give the whole
 * content).
 */
export interface ToolResultPage {
  /** The tool result's message id. */
  id: number;
  /** This page's number, from 1. */
  page: number;
  /** How many pages the result has (1 for an empty one). */
  pages: number;
  /** The page's text: the pages joined are the result's whole text. */
  text: string;
}

const DEFAULT_PAGE = 4000;
const MIN_PAGE = 16;

/** What the tool says it does, for the model. */
export const READ_TOOL_DESCRIPTION =
  "Reads a tool result that the conversation shows cleared or cut, by the message id its marker names " +
  '("[cleared: message 12]" or "[... tokens of this tool result (message 12) omitted ...]"), ' +
  "one page at a time: page 1 first; each answer says which page of how many it is.";

/** The JSON schema of its arguments. */
export function readToolSchema(): {
  type: "object";
  properties: Record<string, unknown>;
  required: string[];
  additionalProperties: false;
} {
  return {
    type: "object",
    properties: {
      id: { type: "integer", minimum: 0, description: "The message id the cleared or cut tool result's marker names." },
      page: { type: "integer", minimum: 1, description: "The page to read, from 1 (default 1)." },
    },
    required: ["id"],
    additionalProperties: false,
  };
}

/** The read tool's options, checked; `what` names the call. @throws INVALID_ARGUMENT */
export function checkReadToolOptions(options: unknown, what: string): ReadToolOptions {
  const o = checkOptions<ReadToolOptions>(options, what, ["maxTokens"]);
  if (o.maxTokens !== undefined) checkInteger(o.maxTokens, `${what}.maxTokens`, MIN_PAGE, MAX_TOKENS);
  return o.maxTokens === undefined ? {} : { maxTokens: o.maxTokens };
}

/**
 * The pages' ends of each result read lately, per chat (a result's text is read again only when it changed: a
 * redaction).
 */
const cache = new WeakMap<Chat, Map<string, { text: string; ends: number[] }>>();
const CACHED = 64;

/**
 * Page `page` (default 1) of tool result `id` of `chat`, at most `maxTokens` tokens of its text
 * by the chat's counter, cut at line, sentence or word boundaries where they can be. The result
 * must be on the branch of the chat's head: the one the loop's contexts are built from.
 * @throws INVALID_ARGUMENT (a bad request or option; a page past the last), UNKNOWN_MESSAGE (no such
 *   message, or none on the head's branch), WRONG_ROLE (not a tool result)
 */
export async function readToolResult(
  chat: Chat,
  request: ToolResultRequest,
  options?: ReadToolOptions,
): Promise<ToolResultPage> {
  if (chat === null || typeof chat !== "object" || typeof (chat as Partial<Chat>).agentSettings !== "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `readToolResult takes a chat (from chats.create() or chats.open()); got ${describe(chat)}.`,
    );
  }
  const what = "readToolResult(chat, request, options)";
  const { maxTokens } = checkReadToolOptions(options, what);
  const r = checkOptions<ToolResultRequest>(request, "readToolResult(chat, request)", ["id", "page"]);
  if (typeof r.id !== "number" || !Number.isInteger(r.id) || r.id < 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `The id must be the message id a cleared or cut tool result's marker names (an integer from 0); got ` +
        `${describe(r.id)}.`,
    );
  }
  const page = r.page ?? 1;
  if (typeof page !== "number" || !Number.isInteger(page) || page < 1) {
    throw new CtxloomError("INVALID_ARGUMENT", `The page must be an integer from 1; got ${describe(r.page)}.`);
  }
  const { counter, limit } = chat.agentSettings();
  if (r.id >= chat.messageCount) {
    throw new CtxloomError(
      "UNKNOWN_MESSAGE",
      `This conversation has no message ${r.id}; give the id a cleared or cut tool result's marker names.`,
    );
  }
  const message = chat.get(r.id);
  if (message.role !== "tool" || message.kind !== "message") {
    const role = message.kind === "summary" ? "summary" : `${message.role} message`;
    const a = role.startsWith("assistant") ? "an" : "a";
    throw new CtxloomError(
      "WRONG_ROLE",
      `Message ${r.id} is ${a} ${role}, not a tool result; give the id a cleared or cut tool result's marker names.`,
    );
  }
  if (!onBranch(chat, r.id)) {
    throw new CtxloomError(
      "UNKNOWN_MESSAGE",
      `Message ${r.id} is not on this conversation's branch; give the id a cleared or cut tool result's marker ` +
        `names in this conversation.`,
    );
  }
  const cap = maxTokens ?? Math.max(MIN_PAGE, Math.min(DEFAULT_PAGE, Math.floor(limit / 8)));
  const ends = pageEnds(chat, r.id, message.content, cap, counter);
  if (page > ends.length) {
    const pages = ends.length === 1 ? "1 page" : `${ends.length} pages`;
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `Tool result ${r.id} has ${pages}; ask for a page from 1 to ${ends.length}.`,
    );
  }
  return {
    id: r.id,
    page,
    pages: ends.length,
    text: message.content.slice(page === 1 ? 0 : ends[page - 2]!, ends[page - 1]!),
  };
}

/**
 * Whether message `id` is the head or one of its ancestors (ids grow from parent to child: the walk stops at the first
 * id at or below it).
 */
function onBranch(chat: Chat, id: number): boolean {
  let x = chat.head;
  while (x !== null && x > id) x = chat.get(x).parentId;
  return x === id;
}

/** Where each page of `text` ends: pages of at most `cap` tokens, the next starting where the last ended. */
function pageEnds(chat: Chat, id: number, text: string, cap: number, counter: TokenCounter): number[] {
  let pages = cache.get(chat);
  if (!pages) cache.set(chat, (pages = new Map()));
  const key = `${id}:${cap}`;
  const hit = pages.get(key);
  if (hit && hit.text === text) return hit.ends;
  const ends: number[] = [];
  for (let start = 0; start < text.length; ) {
    const rest = text.slice(start);
    let end = start + headEnd(rest, cap, counter, measureOf(counter, rest, cap));
    // one character larger than a page: a page of its own
    if (end === start) end = start + [...rest.slice(0, 2)][0]!.length;
    ends.push(end);
    start = end;
  }
  if (ends.length === 0) ends.push(0); // an empty result: one empty page
  if (pages.size >= CACHED) pages.clear();
  pages.set(key, { text, ends });
  return ends;
}

/** A page as the model reads it: where it sits, then its text. */
export function pageText(p: ToolResultPage): string {
  return `[tool result of message ${p.id}, page ${p.page} of ${p.pages}]\n${p.text}`;
}

/** The refusals a model gets as the call's error result (the others are the app's). */
const READ_ERROR_CODES = new Set(["INVALID_ARGUMENT", "UNKNOWN_MESSAGE", "WRONG_ROLE"]);

/**
 * Answers a call of the read tool: its arguments (JSON text, or the parsed object) to the page's
 * text, or, for a call the chat refuses, `{ error }` saying what the model should do instead.
 * Errors of the app's side (a deleted chat, a closed Loom) are thrown.
 */
export async function answerReadTool(
  chat: Chat,
  input: unknown,
  options: ReadToolOptions,
): Promise<{ text: string } | { error: CtxloomError }> {
  const refuse = (message: string) => ({ error: new CtxloomError("INVALID_ARGUMENT", message) });
  let args = input;
  if (typeof input === "string") {
    try {
      args = JSON.parse(input) as unknown;
    } catch {
      return refuse(`The arguments must be JSON such as {"id": 12, "page": 2}; got ${describe(input)}.`);
    }
  }
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return refuse(`The arguments must be an object such as {"id": 12, "page": 2}; got ${describe(args)}.`);
  const { id, page } = args as { id?: unknown; page?: unknown };
  const extra = Object.keys(args).filter((k) => k !== "id" && k !== "page");
  if (extra.length > 0) return refuse(`The arguments are id and page only; got ${describe(extra[0])}.`);
  try {
    const request = { id: id as number, ...(page === undefined || page === null ? {} : { page: page as number }) };
    return { text: pageText(await readToolResult(chat, request, options)) };
  } catch (error) {
    if (error instanceof CtxloomError && READ_ERROR_CODES.has(error.code)) return { error };
    throw error;
  }
}

/** A read tool in one SDK's shape: its definition to send, and `run` for its calls. */
export interface ReadTool<D> {
  /** The tool's name, as the model calls it. */
  readonly name: "readToolResult";
  /** The tool's definition in the SDK's shape, to send with the request's tools. */
  readonly definition: D;
  /**
   * Answers a call: its arguments (JSON text, or the parsed input) to the tool result's content:
   * a page, or for a call the chat refuses a text starting "Error: " that says what to do.
   */
  run(input: unknown): Promise<string>;
}

/** Answers the read tool's calls for a tool of this chat's (`run`): refusals as "Error: " texts. */
export function readRunner(chat: Chat, options: ReadToolOptions): (input: unknown) => Promise<string> {
  return async (input) => {
    const answer = await answerReadTool(chat, input, options);
    return "text" in answer ? answer.text : TOOL_ERROR_PREFIX + answer.error.message;
  };
}
