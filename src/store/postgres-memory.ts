// Working memories in the PostgreSQL store (schema version 4): every record in <p>memory, and
// each memory's revision in <p>memory_heads, the row a write compares-and-sets: two writes made
// on one revision meet on that row's lock, and the second finds the revision moved and writes
// nothing. A chat's memory is written under a share lock on the chat's row, so that a delete of
// the chat (which deletes its memory) waits for the write, or the write finds no chat.
import type { Pool, QueryResult } from "pg";
import { checkLoad, checkMemoryIds, checkQuery, checkWrite } from "../memory/checks.js";
import type { MemoryRecord, MemoryStore, WriteMemoryRequest } from "../memory/types.js";
import { unknownChat } from "./checks.js";
import { checkRequest } from "./call-checks.js";
import { RECORD_WRITE, recordOf, recordValues, scopeOf } from "./memory-rows.js";
import { checkin, checkout } from "./postgres-append.js";
import { PG_TEXT, toText } from "./postgres-rows.js";
import type { Statement } from "./postgres-sql.js";
import type { Corrupt } from "./sql-rows.js";

/** The tables of version 4, for tables named with prefix `p`. */
export function memoryTables(p: string): string[] {
  return [
    `CREATE TABLE ${p}memory (
      user_id text NOT NULL,
      scope text NOT NULL,
      revision integer NOT NULL,
      path text NOT NULL,
      kind smallint NOT NULL,
      author smallint NOT NULL,
      chat_id text,
      at double precision NOT NULL,
      json_schema text,
      content text NOT NULL,
      PRIMARY KEY (user_id, scope, revision, path)
    )`,
    `CREATE INDEX ${p}memory_by_path ON ${p}memory (user_id, scope, path, revision)`,
    `CREATE TABLE ${p}memory_heads (user_id text NOT NULL, scope text NOT NULL, revision integer NOT NULL, PRIMARY ` +
      `KEY (user_id, scope))`,
  ];
}

/** The memory statements, for tables named with prefix `p`. */
export function memoryStatements(p: string) {
  const s = (name: string, text: string): Statement => ({ name: `${p}${name}`, text });
  const rows = (name: string, text: string): Statement => ({ name: `${p}${name}`, text, rowMode: "array" });
  const columns = RECORD_WRITE.replace("chat,", "chat_id,");
  return {
    owned: s("memory_owned", `SELECT 1 FROM ${p}chats WHERE user_id = $1 AND id = $2`),
    ownedLocked: s("memory_owned_locked", `SELECT 1 FROM ${p}chats WHERE user_id = $1 AND id = $2 FOR SHARE`),
    // The newest revision and its time, and, unless it is the known one ($3), each path's newest record, in one
    // snapshot: one row with nulls when none.
    load: rows(
      "memory_load",
      `SELECT coalesce(n.revision, 0), coalesce(n.at, 0), m.* FROM (SELECT 1) one
       LEFT JOIN LATERAL (SELECT revision, at FROM ${p}memory WHERE user_id = $1 AND scope = $2 ORDER BY revision DESC LIMIT 1) n ON true
       LEFT JOIN LATERAL (
         SELECT DISTINCT ON (path) ${columns} FROM ${p}memory
         WHERE user_id = $1 AND scope = $2 AND coalesce(n.revision, 0) <> $3 ORDER BY path, revision DESC) m ON true`,
    ),
    history: rows(
      "memory_history",
      `SELECT ${columns} FROM ${p}memory WHERE user_id = $1 AND scope = $2 AND ($3::text IS NULL OR path = $3) AND revision > $4 AND revision <= $5
       ORDER BY revision, path LIMIT $6`,
    ),
    headRow: s(
      "memory_head_row",
      `INSERT INTO ${p}memory_heads (user_id, scope, revision) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`,
    ),
    bump: s(
      "memory_bump",
      `UPDATE ${p}memory_heads SET revision = $4 WHERE user_id = $1 AND scope = $2 AND revision = $3`,
    ),
    revision: s("memory_revision", `SELECT revision FROM ${p}memory_heads WHERE user_id = $1 AND scope = $2`),
    // All the records in one statement, from one array per column.
    add: s(
      "memory_add",
      `INSERT INTO ${p}memory (user_id, scope, ${columns})
       SELECT $1, $2, * FROM unnest($3::integer[], $4::text[], $5::smallint[], $6::smallint[], $7::text[], $8::double precision[], $9::text[], $10::text[])`,
    ),
    // One memory ($2 a scope), or all of the user's ($2 null); answers how many records went.
    delete: rows(
      "memory_delete",
      `WITH gone AS (DELETE FROM ${p}memory WHERE user_id = $1 AND ($2::text IS NULL OR scope = $2) RETURNING 1),
       heads AS (DELETE FROM ${p}memory_heads WHERE user_id = $1 AND ($2::text IS NULL OR scope = $2))
       SELECT count(*)::integer FROM gone`,
    ),
  };
}

/** The PostgreSQL store's memory methods over its pool (`open`: the pool once migrated). */
export function postgresMemory(open: () => Promise<Pool>, p: string, name: string, corrupt: Corrupt): MemoryStore {
  const st = memoryStatements(p);
  const query = async (statement: Statement, values: unknown[]): Promise<QueryResult> =>
    (await open()).query({ ...statement, values });
  const owned = async (userId: string, chatId: string | null) => {
    if (chatId !== null && (await query(st.owned, [toText(userId), toText(chatId)])).rowCount === 0)
      throw unknownChat(name, userId, chatId);
  };
  const records = (rows: unknown[][]): MemoryRecord[] => rows.map((row) => recordOf(row, corrupt, PG_TEXT));
  return {
    async loadMemory(userId, chatId, known) {
      checkLoad(userId, chatId, known);
      await owned(userId, chatId);
      const r = await query(st.load, [toText(userId), scopeOf(chatId, PG_TEXT), known ?? -1]);
      const [revision, at] = r.rows[0] as [number, number];
      if (revision === known) return { revision, at };
      return {
        revision,
        at,
        records: records((r.rows as unknown[][]).filter((row) => row[2] !== null).map((row) => row.slice(2))),
      };
    },
    async loadMemoryHistory(userId, chatId, query_) {
      const q = checkQuery(userId, chatId, query_);
      await owned(userId, chatId);
      const values = [
        toText(userId),
        scopeOf(chatId, PG_TEXT),
        q.path ?? null,
        q.after ?? 0,
        q.upTo ?? 2 ** 31 - 1,
        q.limit ?? null,
      ];
      return records((await query(st.history, values)).rows as unknown[][]);
    },
    async writeMemory(request) {
      const { userId, chatId, expected, records: given } = checkRequest<WriteMemoryRequest>(request, "writeMemory");
      const rows = checkWrite(userId, chatId, expected, given).map((r) => recordValues(r, PG_TEXT));
      const [user, scope] = [toText(userId), scopeOf(chatId, PG_TEXT)];
      const client = await checkout(await open());
      try {
        await client.query("BEGIN");
        if (chatId !== null && (await client.query({ ...st.ownedLocked, values: [user, scope] })).rowCount === 0)
          throw unknownChat(name, userId, chatId);
        await client.query({ ...st.headRow, values: [user, scope] });
        const last = rows[rows.length - 1]![0] as number;
        if ((await client.query({ ...st.bump, values: [user, scope, expected, last] })).rowCount === 0) {
          const now = (await client.query({ ...st.revision, values: [user, scope] })).rows[0] as
            | { revision: number }
            | undefined;
          await client.query("ROLLBACK");
          return { ok: false, revision: now?.revision ?? 0 };
        }
        // One array per column (unnest makes the rows back).
        await client.query({ ...st.add, values: [user, scope, ...rows[0]!.map((_, i) => rows.map((row) => row[i]))] });
        await client.query("COMMIT");
        return { ok: true };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        checkin(client);
      }
    },
    async deleteMemory(userId, chatId) {
      checkMemoryIds(userId, chatId, true);
      const scope = chatId === undefined ? null : scopeOf(chatId, PG_TEXT);
      const r = await query(st.delete, [toText(userId), scope]);
      return ((r.rows[0] as unknown[])[0] as number) > 0;
    },
  };
}
