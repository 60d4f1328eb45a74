// Issue 30, item 6: deleting a SQLite chat left its texts in the file and its log (-wal), after
// close() too: SQLite leaves a freed row's bytes where they were. A delete now erases them as
// redact does (the file rebuilt, its log emptied). The memory store drops the strings; what
// PostgreSQL and Durable Objects keep after a delete is in docs/chats.md (Chats in a product) and
// tested in test/store/chat-products.test.ts and test/runtime/durable-object-products.test.ts.
import Database from "better-sqlite3";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CtxloomError, Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { expectRejectCode } from "../helpers.js";
import { tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("sqlite-delete");
const SECRET = "SECRET-PASSPORT-K7Q2-93XW";
const TITLE = "TITLE-PRIVATE-8812";
const LONG = `${SECRET} ${"and more private words ".repeat(600)}`; // about 13 KB: on SQLite's overflow pages
const DISTINCT = [SECRET, TITLE, "private words"];

/** The database, its log and its shared memory, as they are on disk. */
const bytesOf = (path: string) => [path, `${path}-wal`, `${path}-shm`].filter(existsSync).map((f) => readFileSync(f));
/** Which of the distinctive texts any of those files holds. */
const found = (path: string) => DISTINCT.filter((t) => bytesOf(path).some((b) => b.includes(t)));

/** A chat "gone" holding the texts (and vectors of them), beside a chat "keep" of the same user. */
async function fill(loom: Loom): Promise<void> {
  const chats = loom.user("alice");
  const keep = await chats.create({ id: "keep", title: "stays" });
  const gone = await chats.create({ id: "gone", title: TITLE });
  for (let i = 0; i < 80; i++) {
    const content =
      i === 30 ? `My passport is ${SECRET}.` : i === 31 ? LONG : `message ${i} ${"x".repeat((i * 37) % 400)}`;
    await gone.append({ role: i % 2 ? "assistant" : "user", content });
    if (i % 4 === 0) await keep.append({ role: i % 8 ? "assistant" : "user", content: `kept ${i}` });
  }
  await loom.flush(); // (the vectors too)
}

describe("SQLite: a deleted chat's texts are gone from the file and its log", () => {
  for (const durability of ["full", "batched"] as const) {
    it(`durability "${durability}": no byte of them in the database or its -wal, the store open and after close()`, async () => {
      const path = file(`${durability}.db`);
      const loom = await Loom.open({ store: sqliteStore(path, { durability }), recall: true });
      await fill(loom);
      expect(found(path)).toEqual(DISTINCT); // on disk before
      await loom.user("alice").delete("gone");
      expect(bytesOf(path).length).toBeGreaterThanOrEqual(2); // the database and its log, the connection open
      expect(found(path)).toEqual([]);
      await loom.close();
      expect(found(path)).toEqual([]);
      // The other chat is whole; the deleted one is gone.
      const again = await Loom.open({ store: sqliteStore(path) });
      expect((await again.user("alice").open("keep")).path().map((m) => m.content)).toEqual(
        Array.from({ length: 20 }, (_, k) => `kept ${k * 4}`),
      );
      await expectRejectCode(() => again.user("alice").open("gone"), "UNKNOWN_CHAT");
      await again.close();
    }, 60_000);
  }

  it("when another connection keeps the log busy: STORE_FAILED saying the chat is deleted, and deleting again erases it", async () => {
    const path = file("busy.db");
    const loom = await Loom.open({ store: sqliteStore(path, { busyTimeoutMs: 50 }), recall: true });
    await fill(loom);
    const reader = new Database(path, { readonly: true });
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM messages").get(); // a read transaction: the log cannot be emptied
    const chats = loom.user("alice");
    const error = await chats.delete("gone").catch((e: CtxloomError) => e);
    expect(error).toBeInstanceOf(CtxloomError);
    expect((error as CtxloomError).code).toBe("STORE_FAILED");
    expect((error as CtxloomError).message).toMatch(/the chat is deleted; delete it again to erase them/);
    expect(found(path).length).toBeGreaterThan(0); // the log still holds the pages as they were
    reader.exec("COMMIT");
    reader.close();
    await chats.delete("gone");
    expect(found(path)).toEqual([]);
    await expectRejectCode(() => chats.open("gone"), "UNKNOWN_CHAT");
    await expectRejectCode(() => chats.delete("gone"), "UNKNOWN_CHAT");
    await loom.close();
    expect(found(path)).toEqual([]);
  }, 60_000);
});
