// The row limit of a SQLite-dialect store built with one (a Durable Object's): a chat's record or
// a message past it is refused before anything is written, with what to do about it.
import { CtxloomError } from "../errors.js";
import type { Message } from "../message.js";
import type { SqlPlace } from "./sql-errors.js";
import { chatValues, messageValues, rowBytes } from "./sql-rows.js";
import type { ChatRecord } from "./types.js";

/** The row values of chats and messages, checked against the most bytes a row may take. */
export class RowLimit {
  readonly #place: SqlPlace;
  readonly #maxRow: number;
  readonly #rowAdvice: string;

  /** `maxRow`: the most bytes of a row (Infinity: no limit); `rowAdvice`: what a user does about a message past it. */
  constructor(place: SqlPlace, maxRow: number, rowAdvice: string) {
    this.#place = place;
    this.#maxRow = maxRow;
    this.#rowAdvice = rowAdvice;
  }

  /** The chat's row values, refused when past the row limit. */
  chat(c: ChatRecord): unknown[] {
    const values = chatValues(c);
    const bytes = this.#maxRow === Infinity ? 0 : rowBytes(values);
    if (bytes > this.#maxRow) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `Chat ${c.id}'s record (title, model, system prompt, options) takes ${bytes} bytes; a row of ` +
          `${this.#place.where} holds at most ${this.#maxRow}. Shorten the system prompt.`,
      );
    }
    return values;
  }

  /** The message's row values (with its key), refused with MESSAGE_TOO_LARGE when past the row limit. */
  message(m: Message, key: string | null): unknown[] {
    const values = messageValues(m);
    values.push(key);
    if (this.#maxRow !== Infinity) {
      const bytes = rowBytes(values);
      if (bytes > this.#maxRow) {
        throw new CtxloomError(
          "MESSAGE_TOO_LARGE",
          `Message ${m.id} takes ${bytes} bytes (its text, parts and tool calls); a row of ${this.#place.where} ` +
            `holds at most ${this.#maxRow}, ` +
            `so nothing was stored and a retry cannot succeed. ${this.#rowAdvice}`,
        );
      }
    }
    return values;
  }
}
