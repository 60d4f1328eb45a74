// The PostgreSQL store's conditional append, and what its failures mean. A failure before the
// statement reached the server, or an error the server answered, wrote nothing (autocommit:
// the statement is its own transaction). A connection lost while the server held the statement
// (or a query timeout) leaves the outcome unknown: the server may have committed it. That one
// is STORE_OUTCOME_UNKNOWN, and the Loom retries under the same key, which finds the message
// when it was stored.
import type { Pool, PoolClient, QueryResult } from "pg";
import { CtxloomError } from "../errors.js";
import type { Message } from "../message.js";
import { unknownChat } from "./checks.js";
import { PG_TEXT, toText } from "./postgres-rows.js";
import type { Statements } from "./postgres-sql.js";
import { messageOf, messageValues, type Corrupt, type MessageRow } from "./sql-rows.js";
import type { AppendResult } from "./types.js";

const unheard = (): void => undefined;

/**
 * A connection of the pool for the caller's statements. A connection that breaks while it is
 * out emits "error", which would end the process unheard (the pool hears only idle ones): the
 * statement under way fails with it all the same.
 */
export async function checkout(pool: Pool): Promise<PoolClient> {
  const client = await pool.connect();
  client.on("error", unheard);
  return client;
}

/** Gives a connection back; with the error that broke it, the pool drops it. */
export function checkin(client: PoolClient, error?: Error): void {
  if (error === undefined) client.removeListener("error", unheard);
  client.release(error);
}

/** True when the server answered the statement with an error (a SQLSTATE): then nothing was written. */
const answered = (error: unknown): boolean =>
  typeof (error as { severity?: unknown } | null)?.severity === "string" &&
  /^[0-9A-Z]{5}$/.test(String((error as { code?: unknown }).code));

/** `keyIndex` names the unique index of keys; `store` names the store in errors. */
export async function appendRow(
  pool: Pool,
  sql: Statements,
  keyIndex: string,
  store: string,
  userId: string,
  chatId: string,
  m: Message,
  head: number,
  updatedAt: number,
  key: string | undefined,
  corrupt: Corrupt,
): Promise<AppendResult> {
  const [user, chat] = [toText(userId), toText(chatId)];
  const stored = key === undefined ? null : toText(key);
  const client = await checkout(pool); // a failure here sent nothing
  let r: QueryResult | undefined;
  try {
    r = await client.query({
      ...sql.append,
      values: [chat, user, head, updatedAt, ...messageValues(m, PG_TEXT), stored],
    });
    checkin(client);
  } catch (error) {
    if (!answered(error)) {
      checkin(client, error as Error);
      throw new CtxloomError(
        "STORE_OUTCOME_UNKNOWN",
        `The PostgreSQL store ${store} lost its connection after message ${m.id} was sent (${String(error)}); it ` +
          `may or may not have been stored. Retry it under the same key.`,
        { cause: error },
      );
    }
    checkin(client);
    // The key is the chat's already: the message is found below. Any other error wrote nothing.
    if (
      !((error as { code?: unknown }).code === "23505" && (error as { constraint?: unknown }).constraint === keyIndex)
    )
      throw error;
  }
  if (r?.rowCount === 1) return { ok: true };
  const row = (await pool.query({ ...sql.appended, values: [chat, user, stored] })).rows[0] as
    | [number, ...MessageRow]
    | undefined;
  if (row === undefined) throw unknownChat(store, userId, chatId);
  const [size, ...message] = row;
  return message[0] === null
    ? { ok: false, size: Number(size) }
    : { ok: false, existing: messageOf(message as MessageRow, corrupt, chatId, PG_TEXT) };
}
