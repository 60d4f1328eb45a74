// Shared by the SQLite store's tests: fresh database files in a temporary folder, records and
// messages to write, and a dump of everything a database holds for a user.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import type { Message, Store } from "../../src/index.js";
import type { ChatRecord } from "../../src/store-entry.js";

/** A temporary folder for this test file, removed after it. */
export function tempFolder(tag: string): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), `ctxloom-${tag}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return (name: string) => join(dir, `${n++}-${name}`);
}

export const record = (over: Partial<ChatRecord> = {}): ChatRecord => ({
  id: "c1",
  userId: "u",
  title: "t",
  model: "gpt-4o",
  system: null,
  createdAt: 1,
  updatedAt: 1,
  messageCount: 0,
  head: null,
  options: {},
  ...over,
});

export const message = (over: Partial<Message> = {}): Message => ({
  id: 0,
  parentId: null,
  role: "user",
  content: "hi",
  priority: "normal",
  tokens: 5,
  createdAt: 1,
  kind: "message",
  ...over,
});

/** Appends `n` messages as a linear chain after the chat's `from` messages; ids must be free. */
export async function chain(store: Store, n: number, from = 0, chatId = "c1", userId = "u"): Promise<void> {
  for (let id = from; id < from + n; id++) {
    const r = await store.appendMessage({
      userId,
      chatId,
      message: message({ id, parentId: id === 0 ? null : id - 1, content: `m${id}` }),
      head: id,
      updatedAt: 100 + id,
    });
    if (!r.ok) throw new Error(`append ${id} conflicted: ${JSON.stringify(r)}`);
  }
}
