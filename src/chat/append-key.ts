// The key of an append: what lets it be retried when its outcome is unknown. A caller may give
// one (`chat.append(message, { key })`); otherwise the Loom makes one for each append to a store
// outside this process, kept across the append's retries. The store keeps it with the message,
// unique per chat, and answers a key it holds with the message stored under it.
import { CtxloomError, checkOptions, describe, fromStoreNow } from "../errors.js";
import { loneSurrogate, type CheckedInput, type Message } from "../message.js";
import type { AppendResult, Store } from "../store/types.js";
import { internalsOf } from "../store/internal.js";

/** Options of `chat.append(message, options)`. */
export interface AppendOptions {
  /**
   * Identifies this append across its retries, unique within the chat (a request id, say;
   * at most 200 characters). When the chat already holds a message appended under this key,
   * the append returns that message (and moves the head to it) instead of appending again:
   * retrying after STORE_OUTCOME_UNKNOWN, or after a lost response, never makes a duplicate.
   */
  key?: string;
  /**
   * The message to append under (null: as a new root) instead of the head, in one step: a
   * server answering a request appends where the request says, whatever another request does
   * to the head meanwhile. The head moves to the new message, as with any append.
   */
  parent?: number | null;
}

const MAX_KEY = 200;

/** The key of `chat.append`'s options, checked, or undefined. @throws INVALID_ARGUMENT */
export function appendKey(options: unknown): string | undefined {
  if (options === undefined) return undefined;
  if (options !== null && typeof options === "object" && "toolResults" in options) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      'append(message, options) has no option "toolResults": a chat keeps every tool result whole, and each context ' +
        "sends it cut " +
        "or cleared. Set toolResults at Loom.open({ toolResults }), create({ toolResults }) or buildContext({ " +
        "toolResults }).",
    );
  }
  const { key } = checkOptions<AppendOptions>(options, "append(message, options)", ["key", "parent"]);
  if (key === undefined) return undefined;
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY || loneSurrogate(key) >= 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `An append's key must be a non-empty, well-formed string of at most ${MAX_KEY} characters (a request id, ` +
        `say); got ${describe(key)}.`,
    );
  }
  return key;
}

/** The 64 characters of a key, as char codes, in code order (- 0-9 A-Z _ a-z): keys sort as their numbers do. */
const DIGITS = Array.from("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz", (c) => c.charCodeAt(0));
/** 8 digits of the time in ms (48 bits), then 14 random ones (84 bits). */
const TIME_DIGITS = 8;
const KEY_LENGTH = 22;
/** Random bytes for the next keys: one getRandomValues call (about 2 us) serves 128 keys. */
let random = new Uint8Array(0);
let taken = 0;
const codes = new Array<number>(KEY_LENGTH);

/**
 * A key of the Loom's own for an append to a store outside this process (whose answer can be
 * lost on the way back), as one flat string: the time, then 84 random bits. Keys made later
 * sort later, so a store's index of a chat's keys grows at its end (random keys cost SQLite
 * three times as much per insert). A store in this process answers every append (the memory
 * store), so its appends get none and it keeps no key per message.
 */
export function ownKey(store: Store): string | undefined {
  if (internalsOf(store)) return undefined;
  const need = KEY_LENGTH - TIME_DIGITS;
  if (taken + need > random.length) {
    random = crypto.getRandomValues(new Uint8Array(need * 128));
    taken = 0;
  }
  let time = Date.now();
  for (let i = TIME_DIGITS - 1; i >= 0; i--, time = Math.floor(time / 64)) codes[i] = DIGITS[time % 64]!;
  for (let i = TIME_DIGITS; i < KEY_LENGTH; i++) codes[i] = DIGITS[random[taken++]! & 63]!;
  return String.fromCharCode(...codes);
}

/** What an append is, for errors: a message, a summary, or a lookup of a key. */
export type AppendKind = "message" | "summary" | "lookup";

/** One store append, what its failure is mapped with (fromStore), as an action ("appending message 4 of chat c"). */
interface Append {
  store: Store;
  userId: string;
  chatId: string;
  message: Message;
  head: number;
  updatedAt: number;
  key: string | undefined;
  kind: AppendKind;
}

const what = (a: Append): string =>
  a.kind === "lookup"
    ? `a lookup of key ${describe(a.key)} in chat ${a.chatId}`
    : `${a.kind} ${a.message.id} of chat ${a.chatId}`;
function call(a: Append): AppendResult | Promise<AppendResult> {
  const request = {
    userId: a.userId,
    chatId: a.chatId,
    message: a.message,
    head: a.head,
    updatedAt: a.updatedAt,
    key: a.key,
  };
  return fromStoreNow(a.kind === "summary" ? "storing the summary" : "appending the message", () =>
    a.store.appendMessage(request),
  );
}

/**
 * Appends `a.message` to the store under `a.key` and reads the answer: true when it was
 * appended, false when another writer took its id (the chat holds more), or the message the
 * chat holds under the key already; STORE_FAILED for any other answer. When the outcome is
 * unknown (STORE_OUTCOME_UNKNOWN) and the append has a key, it runs once more under the same
 * key: a message the first call stored comes back as the one the chat holds. When that fails
 * too, STORE_OUTCOME_UNKNOWN says so and names the key, for the caller's own retry.
 */
export function storeAppend(a: Append): boolean | Message | Promise<boolean | Message> {
  let result: AppendResult | Promise<AppendResult>;
  try {
    result = call(a);
  } catch (error) {
    return retry(a, error);
  }
  if (result instanceof Promise)
    return result.then(
      (r) => answer(a, r),
      (error: unknown) => retry(a, error),
    );
  return answer(a, result);
}

function answer(a: Append, result: AppendResult): boolean | Message {
  const r = result as { ok?: unknown; size?: unknown; existing?: unknown } | null;
  if (r !== null && typeof r === "object") {
    if (r.ok === true) return true;
    if (r.ok === false && a.key !== undefined && r.existing !== null && typeof r.existing === "object")
      return r.existing as Message;
    if (r.ok === false && Number.isInteger(r.size) && (r.size as number) > a.message.id) return false;
  }
  throw new CtxloomError(
    "STORE_FAILED",
    `The store answered ${describe(result)} to appending ${what(a)}; a Store's appendMessage returns { ok: true }, ` +
      `{ ok: false, size } ` +
      `with the size it holds when another writer got there first, or { ok: false, existing } with the message ` +
      `stored under the append's key.`,
  );
}

function retry(a: Append, first: unknown): Promise<boolean | Message> {
  if (!(first instanceof CtxloomError && first.code === "STORE_OUTCOME_UNKNOWN" && a.key !== undefined)) throw first;
  return Promise.resolve()
    .then(() => call(a))
    .then(
      (r) => answer(a, r),
      (again: unknown) => {
        throw new CtxloomError(
          "STORE_OUTCOME_UNKNOWN",
          `The store lost its connection after ${what(a)} was sent, and a retry failed too ` +
            `(${again instanceof Error ? again.message : String(again)}): ` +
            `it may or may not have been stored. chat.refresh() shows whether it was; an append retried under the ` +
            `same key, ` +
            `chat.append(message, { key: ${JSON.stringify(a.key)} }), returns it if it was, instead of appending it ` +
            `again.`,
          { cause: first },
        );
      },
    );
}

/**
 * The message the store holds under `key` in a chat of `size` messages (size > 0), or null:
 * an append with a stale id (the last one) writes nothing, and answers with the message stored
 * under its key, or with a conflict when there is none.
 */
export function lookUpKey(
  store: Store,
  userId: string,
  chatId: string,
  size: number,
  m: CheckedInput,
  key: string,
): Message | null | Promise<Message | null> {
  const probe: Message = {
    id: size - 1,
    parentId: null,
    role: m.role,
    content: m.content,
    priority: m.priority,
    tokens: 0,
    createdAt: Date.now(),
    kind: "message",
  };
  const read = (answer: boolean | Message): Message | null => {
    if (answer === true)
      throw new CtxloomError(
        "STORE_FAILED",
        `The store appended message ${size - 1} to chat ${chatId}, which holds ${size}; a Store's appendMessage ` +
          `writes only the next id.`,
      );
    return answer === false ? null : answer;
  };
  const found = storeAppend({
    store,
    userId,
    chatId,
    message: probe,
    head: size - 1,
    updatedAt: probe.createdAt,
    key,
    kind: "lookup",
  });
  return found instanceof Promise ? found.then(read) : read(found);
}

/**
 * The id of a message a store answered as stored under an append's key, checked against what
 * the append asks for (`m`; null for a summary). @throws STORE_FAILED for a message without an
 * id, INVALID_ARGUMENT when the key was given to another message
 */
export function checkStored(stored: Message, m: CheckedInput | null, chatId: string): number {
  const id = stored.id;
  if (!Number.isInteger(id) || id < 0) {
    throw new CtxloomError(
      "STORE_FAILED",
      `The store answered an existing message with id ${describe(id)}; a Store's appendMessage answers { ok: false, ` +
        `existing } with the message as stored.`,
    );
  }
  if (m && (stored.role !== m.role || stored.content !== m.content)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `This append's key was given to message ${id} of chat ${chatId}, another message (a ${describe(stored.role)} ` +
        `message ${describe(stored.content)}); ` +
        `give each new message its own key, and the same key only to retries of the same append.`,
    );
  }
  return id;
}
