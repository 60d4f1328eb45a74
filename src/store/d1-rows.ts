// What D1 holds in one row and one value: a chat's record or a message past D1's row limit is
// refused before anything is written, and rows sent as JSON are cut into values D1 takes.
import { CtxloomError } from "../errors.js";
import type { Message } from "../message.js";
import { chatValues, messageValues, rowBytes, type Corrupt } from "./sql-rows.js";
import type { ChatRecord } from "./types.js";

/** JSON characters per statement of an import or of vectors (D1 holds a value of 2 MB at most). */
const JSON_CHUNK = 1_000_000;

export interface D1Settings {
  /** The store's name in errors ("D1 database (tables ctxloom_*)"). */
  where: string;
  corrupt: Corrupt;
  /** The most bytes a row may take (D1: 2 MB). */
  maxRowBytes: number;
}

/** The values, unless past the row limit: then what() is thrown. */
function row(values: unknown[], maxRowBytes: number, what: () => CtxloomError): unknown[] {
  if (rowBytes(values) > maxRowBytes) throw what();
  return values;
}

/** The message's row values. @throws MESSAGE_TOO_LARGE past the row limit */
export function d1MessageRow(m: Message, s: D1Settings): unknown[] {
  return row(
    messageValues(m),
    s.maxRowBytes,
    () =>
      new CtxloomError(
        "MESSAGE_TOO_LARGE",
        `Message ${m.id} takes ${rowBytes(messageValues(m))} bytes (its text, parts and tool calls); a row of ` +
          `${s.where} holds at most ` +
          `${s.maxRowBytes}, so nothing was stored and a retry cannot succeed. Split it, or keep large ` +
          `files outside the chat (an image or file part can hold a URL).`,
      ),
  );
}

/** The chat's row values. @throws INVALID_ARGUMENT past the row limit */
export function d1ChatRow(c: ChatRecord, s: D1Settings): unknown[] {
  return row(
    chatValues(c),
    s.maxRowBytes,
    () =>
      new CtxloomError(
        "INVALID_ARGUMENT",
        `Chat ${c.id}'s record (title, model, system prompt, options) takes ${rowBytes(chatValues(c))} bytes; a ` +
          `row of ${s.where} holds at most ${s.maxRowBytes}. Shorten the system prompt.`,
      ),
  );
}

/** Values of JSON arrays, cut into texts of at most JSON_CHUNK characters (one statement each). */
export function jsonChunks(rows: unknown[][]): string[] {
  const out: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const row of rows) {
    const text = JSON.stringify(row);
    if (parts.length > 0 && size + text.length + 1 > JSON_CHUNK) {
      out.push(`[${parts.join(",")}]`);
      [parts, size] = [[], 2];
    }
    parts.push(text);
    size += text.length + 1;
  }
  if (parts.length > 0) out.push(`[${parts.join(",")}]`);
  return out;
}
