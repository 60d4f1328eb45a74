// A store's chunks of numbers (sql-numbers.ts): written as a chat's messages fill them, rewritten
// or deleted as a redaction changes them, and read when a long chat opens without its texts
// (sql-paged-load.ts; the rows read as numbers: sql-paged-rows.ts).
import type { MessageColumns } from "./columns.js";
import type { SqlConnection } from "./sql-connection.js";
import { CHUNK, numbersStatements, type NumbersStatements } from "./sql-numbers.js";
import { loadPaged, type PagedReads } from "./sql-paged-load.js";
import { pagedStatements, writeChunk, type PagedStatements } from "./sql-paged-rows.js";
import type { Corrupt } from "./sql-rows.js";

/** Chats of fewer messages are loaded with their texts (they fit, and a context reads none from the store). */
export const PAGED_FROM = 50_000;

/**
 * A store's chunks of numbers (sql-numbers.ts): a store that pages (`pages`) writes each chunk as
 * it fills and reads them when it opens a chat paged; every store rewrites or deletes those of
 * the messages a redaction changes (a chat's go with it: sql-statements.ts, sql-retention.ts).
 */
export class NumberChunks {
  readonly #db: SqlConnection;
  readonly #ps: PagedStatements;
  readonly #ns: NumbersStatements;
  readonly #pages: boolean;
  readonly #corrupt: Corrupt;

  constructor(db: SqlConnection, prefix: string, pages: boolean, corrupt: Corrupt) {
    this.#db = db;
    this.#ps = pagedStatements(prefix);
    this.#ns = numbersStatements(prefix);
    this.#pages = pages;
    this.#corrupt = corrupt;
  }

  /** Chat `key` holds `size` messages after an append: the chunk it filled is written. */
  appended(key: number, size: number): void {
    if (this.#pages && size % CHUNK === 0)
      writeChunk(this.#db, this.#ps, this.#ns, key, size / CHUNK - 1, this.#corrupt);
  }

  /** Chat `key` was imported with `count` messages: its full chunks are written. */
  imported(key: number, count: number): void {
    if (this.#pages)
      for (let chunk = 0; (chunk + 1) * CHUNK <= count; chunk++)
        writeChunk(this.#db, this.#ps, this.#ns, key, chunk, this.#corrupt);
  }

  /**
   * Messages `ids` of chat `key` (of `size` messages) were redacted: their chunks are written again, or deleted where
   * the store pages not.
   */
  redacted(key: number, ids: readonly number[], size: number): void {
    for (const chunk of new Set(ids.map((id) => Math.floor(id / CHUNK)))) {
      this.#db.run(this.#ns.deleteChunk, key, chunk);
      if (this.#pages && (chunk + 1) * CHUNK <= size)
        writeChunk(this.#db, this.#ps, this.#ns, key, chunk, this.#corrupt);
    }
  }

  /**
   * Chat `key` of `count` messages paged (loadPaged), inside a read; a full chunk it reads from the
   * rows (a database of version 4) is written for the next open, unless that write fails: the open goes on.
   */
  load(
    key: number,
    count: number,
    chatId: string,
    later: Pick<PagedReads, "read" | "gone">,
  ): MessageColumns | undefined {
    let keeping = true;
    const keep = (chunk: number, bytes: Uint8Array): void => {
      if (!keeping) return;
      try {
        this.#db.run(this.#ns.put, key, chunk, bytes);
      } catch {
        keeping = false;
      }
    };
    return loadPaged(this.#db, { ps: this.#ps, ns: this.#ns, keep, ...later }, key, count, this.#corrupt, chatId);
  }
}
