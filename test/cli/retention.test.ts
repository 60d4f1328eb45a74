// Issue 35, items 4 and 5: `ctxloom erase --user <id>` and `ctxloom prune` for operators, on a
// SQLite file (no byte of an erased user left in it or its log) and as usage mistakes say.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteStore } from "../../src/sqlite.js";
import { message, record } from "../store/sqlite-helpers.js";
import { cli, dir } from "./cli.js";

const DAY = 86_400_000;
const bytesOf = (path: string) => [path, `${path}-wal`].filter(existsSync).map((f) => readFileSync(f));

describe("ctxloom erase and prune", () => {
  it("erase --user removes the user's chats from the file and its log, and says what it removed", async () => {
    const path = join(dir, "erase.db");
    const store = sqliteStore(path);
    await store.importChat(record({ id: "a", userId: "alice", messageCount: 2, head: 1 }), [
      message({ content: "SECRET-CLI-77" }),
      message({ id: 1, parentId: 0, content: "two" }),
    ]);
    await store.importChat(record({ id: "b", userId: "bob", messageCount: 1, head: 0 }), [
      message({ content: "bob stays" }),
    ]);
    expect(bytesOf(path).some((b) => b.includes("SECRET-CLI-77"))).toBe(true);
    const out = await cli(["erase", "--user", "alice", "--json"], store);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.out)).toEqual({ user: "alice", chats: 1, messages: 2 });
    const reopened = sqliteStore(path);
    expect(bytesOf(path).some((b) => b.includes("SECRET-CLI-77"))).toBe(false);
    expect((await reopened.listChats("bob")).map((c) => c.id)).toEqual(["b"]);
    await reopened.close();
  });

  it("prune --idle-for --keep-newest removes what the rules name, batch by batch, and lists it", async () => {
    const path = join(dir, "prune.db");
    const store = sqliteStore(path);
    const now = Date.now();
    for (const [user, id, age] of [
      ["u", "old", 100],
      ["u", "new1", 1],
      ["u", "new2", 2],
      ["u", "new3", 3],
      ["v", "old", 200],
    ] as const) {
      const at = now - age * DAY;
      await store.importChat(record({ id, userId: user, updatedAt: at, createdAt: at, messageCount: 1, head: 0 }), [
        message({ createdAt: at }),
      ]);
    }
    const out = await cli(
      ["prune", "--idle-for", "30d", "--keep-newest", "2", "--batch-size", "1", "--vacuum", "--json"],
      store,
    );
    expect(out.code).toBe(0);
    const report = JSON.parse(out.out) as {
      chats: number;
      messages: number;
      removed: { userId: string; chatId: string }[];
      vacuumed: boolean;
    };
    expect([report.chats, report.messages, report.vacuumed]).toEqual([3, 3, true]);
    expect(report.removed.map((c) => `${c.userId}/${c.chatId}`).sort()).toEqual(["u/new3", "u/old", "v/old"]);
    const text = await cli(["prune", "--idle-for", "30d"], sqliteStore(path));
    expect(text).toMatchObject({ code: 0, out: "removed 0 chats (0 messages)." });
  });

  it("usage mistakes exit 2, say what to do, and remove nothing", async () => {
    expect(await cli(["erase"])).toMatchObject({ code: 2, err: expect.stringContaining("erase needs --user <id>") });
    expect(await cli(["prune"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("prune needs --idle-for <duration>, --keep-newest <n>, or both"),
    });
    expect(await cli(["prune", "--idle-for", "90"])).toMatchObject({
      code: 2,
      err: "ctxloom: --idle-for takes a duration: a whole number and d, h, m or s (90d); got 90.",
    });
    expect(await cli(["prune", "--keep-newest", "0"])).toMatchObject({
      code: 2,
      err: "ctxloom: --keep-newest takes a number of chats (a whole number from 1); got 0.",
    });
    for (const c of ["erase", "prune"])
      expect(await cli([c, "--help"])).toMatchObject({
        code: 0,
        out: expect.stringMatching(new RegExp(`^Usage: ctxloom ${c}`)),
      });
  });
});
