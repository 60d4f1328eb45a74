// A context's conversation, made when first read, is what the build selected: the same after
// later appends, and after its chat was evicted from memory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { forEachEngine } from "../helpers.js";

const dir = mkdtempSync(join(tmpdir(), "ctxloom-context-later-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

forEachEngine((engine) => {
  it("reads the selected messages later, after appends and after its chat was evicted", async () => {
    const loom = await Loom.open({ engine, store: sqliteStore(join(dir, `${engine}.db`)), maxOpenChats: 1 });
    const chats = loom.user("u");
    const a = await chats.create();
    await a.append({ role: "user", content: "Grüße 👋, what is the ferry to Cacilhas?" });
    await a.append({ role: "assistant", content: "It leaves from Cais do Sodré every 20 minutes.", priority: "low" });
    await a.append({ role: "user", content: "And the last one?" });
    const ctx = await a.buildContext();
    const expected = a.path();
    await a.append({ role: "assistant", content: "Around 1:40 at night." });
    await chats.create(); // past maxOpenChats: chat a is evicted
    await new Promise((r) => setTimeout(r, 20));
    expect(ctx.conversation).toEqual(expected);
    expect(ctx.messages.slice(0, 3).map((m) => m.content)).toEqual(expected.map((m) => m.content));
    const copy = structuredClone(ctx);
    expect(copy.conversation).toEqual(expected);
    ctx.conversation = [];
    expect(ctx.conversation).toEqual([]);
    await loom.close();
  });
});
