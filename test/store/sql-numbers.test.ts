// Issue 35, item 3: a long chat's numbers apart from its texts (schema version 5), on the kit's
// store over a SQLite file (better-sqlite3) paging as a Durable Object does (the same code runs
// in workerd: test/runtime/durable-object.test.ts). A chunk of 1,024 messages is written when it
// fills, read by a paged open instead of the rows, written again by a redaction, and goes with
// its chat; a database of version 4 migrates, and its first paged open writes the chunks.
import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sqlStatements } from "../../src/store/sql-statements.js";
import { CHUNK, decodeChunk, encodeChunk, type ChunkNumbers } from "../../src/store/sql-numbers.js";
import { SqlStore } from "../../src/store/sql-store.js";
import { WriteBatch } from "../../src/store/sqlite-batch.js";
import { sqliteConnection } from "../../src/store/sqlite-connection.js";
import type { SqliteDatabase } from "../../src/store/sqlite-driver.js";
import { filePlace } from "../../src/store/sqlite-errors.js";
import { migrate } from "../../src/store/sqlite-schema.js";
import { MESSAGE_COLUMNS, messageRow, nthMessage, toolCall } from "./long-chat.js";
import { record, tempFolder } from "./sqlite-helpers.js";
import { V1, V2, V3, V4 } from "./sqlite-released.js";
import { columnsOf } from "../../src/store/internal.js";

const file = tempFolder("numbers");
const ST = sqlStatements("");

/** The kit's store on the file at `path`, opening chats of `pageFrom` messages or more paged (as a Durable Object's does). */
function kitStore(path: string, pageFrom = 1000) {
  const db = new Database(path) as Database.Database & SqliteDatabase;
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF"); // (a commit per append, no wait for the disk: these tests look at what is written, not when)
  const conn = sqliteConnection(db);
  migrate(db, conn, path);
  const tx = new WriteBatch(db, conn, path, undefined, { durability: "full", batchSize: 1, batchDelayMs: 0 }, ST);
  const store = new SqlStore(conn, ST, tx, { place: filePlace(path), pageFrom });
  return { db, store, close: () => db.close() };
}

const call = toolCall;
const nth = nthMessage;

/** Appends messages `from` to `to - 1` of nth() to chat `chatId`. */
function fill(store: SqlStore, from: number, to: number, chatId = "c1"): void {
  for (let id = from; id < to; id++) {
    const r = store.appendMessage("u", chatId, nth(id), id, 100 + id);
    if (!r.ok) throw new Error(`append ${id}: ${JSON.stringify(r)}`);
  }
}

const chunks = (db: Database.Database) =>
  db.prepare("SELECT chat, chunk, length(data) FROM message_numbers ORDER BY chat, chunk").raw().all() as number[][];
/** The chat read paged (pageFrom 1000) and read whole (with its texts), as messages. */
function both(path: string, chatId = "c1") {
  const paged = kitStore(path);
  const whole = kitStore(path, Infinity);
  try {
    const a = paged.store.loadChat("u", chatId)!;
    const b = whole.store.loadChat("u", chatId)!;
    return { paged: a.messages, whole: b.messages, pagedColumns: columnsOf(a)!, wholeColumns: columnsOf(b)! };
  } finally {
    paged.close();
    whole.close();
  }
}

describe("a chunk's BLOB", () => {
  const numbers = fc
    .array(
      fc.tuple(
        fc.double({ noNaN: true }),
        fc.integer({ min: -1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 2 ** 30 }),
        fc.integer({ min: 0, max: 127 }),
      ),
      {
        minLength: CHUNK,
        maxLength: CHUNK,
      },
    )
    .map(
      (rows): ChunkNumbers => ({
        created: Float64Array.from(rows, (r) => r[0]),
        parents: Int32Array.from(rows, (r) => r[1]),
        tokens: Int32Array.from(rows, (r) => r[2]),
        codes: Uint8Array.from(rows, (r) => r[3]),
      }),
    );

  it("is 17 bytes a message, little-endian, and reads back on either host order (from a shared buffer too)", () => {
    fc.assert(
      fc.property(numbers, fc.nat(7), (n, offset) => {
        const bytes = encodeChunk(n, true);
        expect(encodeChunk(n, false)).toEqual(bytes);
        const view = new DataView(bytes.buffer);
        expect([
          view.getFloat64(8, true),
          view.getInt32(CHUNK * 8 + 4, true),
          view.getInt32(CHUNK * 12 + 4, true),
          bytes[CHUNK * 16 + 1],
        ]).toEqual([n.created[1], n.parents[1], n.tokens[1], n.codes[1]]);
        const shared = new Uint8Array(bytes.length + offset);
        shared.set(bytes, offset);
        for (const host of [true, false]) expect(decodeChunk(shared.subarray(offset), host)).toEqual(n);
      }),
      { numRuns: 20 },
    );
  });

  it("is no chunk at another length", () => {
    expect(decodeChunk(new Uint8Array(CHUNK * 17 - 1))).toBeUndefined();
    expect(decodeChunk(new Uint8Array(0))).toBeUndefined();
  });
});

describe("a long chat's chunks of numbers (kit store over a SQLite file, paging)", () => {
  it("are written as they fill, and a paged open reads them: the same messages as a whole load", () => {
    const path = file("fill.db");
    const s = kitStore(path);
    s.store.createChat(record());
    fill(s.store, 0, 2 * CHUNK - 1);
    expect(chunks(s.db)).toEqual([[1, 0, CHUNK * 17]]);
    fill(s.store, 2 * CHUNK - 1, 2 * CHUNK + 600);
    expect(chunks(s.db)).toEqual([
      [1, 0, CHUNK * 17],
      [1, 1, CHUNK * 17],
    ]);
    s.close();
    const { paged, whole, pagedColumns } = both(path);
    expect(pagedColumns.columnBytes).toBeLessThan(whole.length * 15); // its numbers: the texts stayed in the file
    expect(paged).toEqual(whole);
    expect(whole.length).toBe(2 * CHUNK + 600);
    expect(whole[1500]!.kind).toBe("summary");
  });

  it("the open reads a full chunk, not its rows, and the last (not full) from its rows", () => {
    const path = file("read.db");
    const s = kitStore(path);
    s.store.createChat(record());
    fill(s.store, 0, CHUNK + 10);
    // Changed behind the store's back: a chunk's message, and one past the last full chunk.
    s.db.exec(`UPDATE messages SET tokens = 999 WHERE id IN (5, ${CHUNK + 5})`);
    s.close();
    const { paged, whole } = both(path);
    expect([whole[5]!.tokens, whole[CHUNK + 5]!.tokens]).toEqual([999, 999]);
    expect([paged[5]!.tokens, paged[CHUNK + 5]!.tokens]).toEqual([nth(5).tokens, 999]);
  });

  it("a redaction writes the chunks of its messages again", () => {
    const path = file("redact.db");
    const s = kitStore(path);
    s.store.createChat(record());
    fill(s.store, 0, CHUNK + 10);
    // Message 3 had tool calls and no text; 7 a text; 1030 is past the full chunk.
    expect(
      s.store.redactMessages("u", "c1", [
        { id: 3, content: "[redacted]", tokens: 1, toolCalls: [call(99)] },
        { id: 7, content: "", tokens: 2 },
        { id: CHUNK + 6, content: "gone", tokens: 3 },
      ]),
    ).toBe(true);
    s.close();
    const { paged, whole } = both(path);
    expect(paged).toEqual(whole);
    expect([paged[3]!.content, paged[3]!.tokens, paged[3]!.toolCalls, paged[7]!.tokens]).toEqual([
      "[redacted]",
      1,
      [call(99)],
      2,
    ]);
  });

  it("an import writes its full chunks", () => {
    const path = file("import.db");
    const s = kitStore(path);
    const messages = Array.from({ length: CHUNK * 2 + 3 }, (_, id) => nth(id));
    s.store.importChat(record({ messageCount: messages.length, head: messages.length - 1 }), messages);
    expect(chunks(s.db)).toEqual([
      [1, 0, CHUNK * 17],
      [1, 1, CHUNK * 17],
    ]);
    s.close();
    const { paged, whole } = both(path);
    expect(paged).toEqual(whole);
  });

  it("go with their chat: a delete, a user's erasure, a prune leave none", () => {
    const path = file("delete.db");
    const s = kitStore(path);
    for (const [user, id] of [
      ["u", "c1"],
      ["u", "c2"],
      ["v", "c3"],
      ["w", "c4"],
    ]) {
      s.store.createChat(record({ userId: user, id, updatedAt: id === "c4" ? 1 : 1e12 }));
      for (let m = 0; m < CHUNK; m++) s.store.appendMessage(user!, id!, nth(m), m, id === "c4" ? 2 : 1e12 + m);
    }
    expect(chunks(s.db).length).toBe(4);
    expect(s.store.deleteChat("u", "c1")).toBe(true);
    expect(chunks(s.db).map((r) => r[0])).toEqual([2, 3, 4]);
    expect(s.store.eraseUser("v")).toEqual({ chats: 1, messages: CHUNK });
    expect(chunks(s.db).map((r) => r[0])).toEqual([2, 4]);
    expect(s.store.pruneChats({ idleBefore: 10, limit: 10 }).removed.map((c) => c.chatId)).toEqual(["c4"]);
    expect(chunks(s.db).map((r) => r[0])).toEqual([2]);
    s.close();
  });

  it("a row an append did not write (an unknown role code) leaves its chunk unwritten: the append lands, the open reports the row", () => {
    const path = file("corrupt.db");
    const s = kitStore(path);
    s.store.createChat(record());
    fill(s.store, 0, 10);
    s.db.exec("UPDATE messages SET role = 9 WHERE id = 2");
    fill(s.store, 10, CHUNK + 1);
    expect(chunks(s.db)).toEqual([]);
    expect(() => s.store.loadChat("u", "c1")).toThrow(
      expect.objectContaining({
        code: "STORE_CORRUPT",
        message: expect.stringMatching(/message 2 has an unknown role/),
      }),
    );
    s.close();
  });

  it("a file of version 4 (as released) migrates; its first paged open writes the chunks, the next reads them", () => {
    const path = file("v4.db");
    const raw = new Database(path);
    raw.exec(V1 + V2 + V3 + V4);
    const n = 2 * CHUNK + 77;
    raw.prepare("INSERT INTO users VALUES ('u', 1)").run();
    raw.prepare("INSERT INTO chats VALUES (1, 'u', 'c1', 'old', 'gpt-4o', NULL, '{}', ?, 1, 2, ?)").run(n - 1, n);
    const insert = raw.prepare(
      `INSERT INTO messages (chat, ${MESSAGE_COLUMNS}) VALUES (1, ${MESSAGE_COLUMNS.split(", ")
        .map(() => "?")
        .join(", ")})`,
    );
    raw.transaction(() => {
      for (let id = 0; id < n; id++) insert.run(...messageRow(nth(id)));
    })();
    raw.close();
    const first = both(path);
    expect(first.paged).toEqual(first.whole);
    const s = kitStore(path);
    expect(s.db.prepare("SELECT version FROM ctxloom_schema ORDER BY version").pluck().all()).toEqual([1, 2, 3, 4, 5]);
    expect(chunks(s.db)).toEqual([
      [1, 0, CHUNK * 17],
      [1, 1, CHUNK * 17],
    ]);
    s.db.exec("UPDATE messages SET tokens = 999 WHERE id = 5");
    s.close();
    const next = both(path);
    expect(next.paged[5]!.tokens).toBe(nth(5).tokens); // read from the chunk
    expect(next.paged.map((m) => m.id)).toEqual(next.whole.map((m) => m.id));
  });
});
