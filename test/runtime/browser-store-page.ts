// The page of test/runtime/browser-store.test.ts: a Loom on the browser's IndexedDB store, and
// what the test asks of it, as functions on `window` (each opens the store anew, as a page load does).
import { Loom, type Message } from "../../src/index.js";
import { indexedDBStore } from "../../src/browser.js";
import type { MemoryRecord } from "../../src/store-entry.js";
import { DB_VERSION } from "../../src/store/indexeddb-db.js";
import { attackCases } from "../adapters/memory-attack-cases.js";
import { memoryContextCases } from "../memory/context-cases.js";
import { memoryApiCases, memoryBadCases } from "../memory/memory-cases.js";
import { runContract } from "../store/contract-run.js";
import { erasureCases, memoryErasureCases, openFor, pruneCases } from "../store/retention-cases.js";
import { makeV1, openRaw } from "./indexeddb-v1.js";

const open = () => Loom.open({ store: indexedDBStore(), counter: "heuristic", recall: false });
const error = (e: unknown) => ({
  code: (e as { code?: string }).code ?? `not coded: ${String(e)}`,
  message: String((e as Error).message),
});
let loom: Promise<Loom> | undefined;
const mine = () => (loom ??= open());

const page = {
  async create(id: string) {
    return (await (await mine()).user("u").create({ id, title: `chat ${id}` })).id;
  },
  /** Appends `contents` one after the other, each under the head this page's chat holds. */
  async append(id: string, contents: string[]) {
    const chat = await (await mine()).user("u").open(id);
    const ids: number[] = [];
    for (const content of contents) ids.push((await chat.append({ role: "user", content })).id);
    return ids;
  },
  async dump(id: string) {
    const chat = await (await mine()).user("u").open(id);
    return {
      messages: Array.from({ length: chat.messageCount }, (_, i) => chat.get(i)).map((m: Message) => [
        m.id,
        m.parentId,
        m.content,
      ]),
      head: chat.head,
    };
  },
  async tooLarge(id: string, bytes: number) {
    const chat = await (await mine()).user("u").open(id);
    try {
      // Letters drawn at random: the browser compresses what it stores, and this does not compress.
      const letters = new Uint8Array(bytes);
      for (let at = 0; at < bytes; at += 65_536) crypto.getRandomValues(letters.subarray(at, at + 65_536));
      for (let i = 0; i < bytes; i++) letters[i] = 97 + (letters[i]! % 26);
      await chat.append({ role: "user", content: new TextDecoder().decode(letters) });
      return "ok";
    } catch (e) {
      return error(e);
    }
  },
  async contract() {
    let n = 0;
    return { cases: await runContract(() => indexedDBStore({ name: `contract${++n}` })) };
  },
  async retention() {
    const erase = await erasureCases(openFor(Loom), indexedDBStore({ name: "erase" }));
    const prune = await pruneCases(openFor(Loom), indexedDBStore({ name: "prune" }));
    const memory = await memoryErasureCases(openFor(Loom), indexedDBStore({ name: "memerase" }));
    // Every memory record left in the database itself.
    const db = await openRaw("memerase", DB_VERSION);
    const left = await new Promise(
      (resolve) =>
        (db.transaction("memory").objectStore("memory").getAllKeys().onsuccess = (e) =>
          resolve((e.target as IDBRequest).result)),
    );
    db.close();
    return { erase, prune, memory, left };
  },
  /** A user's working memory through the API, every context carrying it, the memory tool's attacks. */
  async memoryApi(user: string) {
    const loom = await Loom.open({ store: indexedDBStore({ name: "memory-api" }), counter: "heuristic" });
    const out = {
      api: await memoryApiCases(loom, user),
      bad: await memoryBadCases(loom, `${user}-bad`),
      context: await memoryContextCases(loom, `${user}-ctx`),
    };
    await loom.close();
    const attacked = await Loom.open({ store: indexedDBStore({ name: "memory-attacks" }), counter: "heuristic" });
    Object.assign(out, { attacks: await attackCases(attacked) });
    await attacked.close();
    return out;
  },
  /** Writes `n` documents to user "u"'s memory, each on the revision read, again after a conflict; the conflicts met. */
  async memoryWrites(tag: string, n: number) {
    const store = indexedDBStore({ name: "tabs-memory" });
    let conflicts = 0;
    for (let i = 0; i < n; i++) {
      for (;;) {
        const { revision } = await store.loadMemory!("u", null);
        const record: MemoryRecord = {
          revision: revision + 1,
          path: `${tag}${i}.md`,
          kind: "text",
          content: tag,
          schema: null,
          by: "app",
          chatId: null,
          at: 1,
        };
        if ((await store.writeMemory!({ userId: "u", chatId: null, expected: revision, records: [record] })).ok) break;
        conflicts++;
      }
    }
    return conflicts;
  },
  async memoryHistory() {
    return (await indexedDBStore({ name: "tabs-memory" }).loadMemoryHistory!("u", null)).map((r) => [
      r.revision,
      r.path,
    ]);
  },
  /** A database made by release 1 (indexeddb-v1.ts), opened by this release: what it reads back, and its memory. */
  async upgrade() {
    await makeV1("v1");
    const store = indexedDBStore({ name: "v1" });
    const plain = async (userId: string) => {
      const loaded = (await store.loadChat(userId, "c1"))!;
      return { chat: loaded.chat, messages: loaded.messages };
    };
    const [erin, zoe] = [await plain("erin"), await plain("zoe")];
    const vectors = (await store.loadEmbeddings("erin", "c1", { name: "e", dimension: 2 })).map((r) => [
      r.messageId,
      [...r.vector],
    ]);
    const retry = await store.appendMessage({
      userId: "erin",
      chatId: "c1",
      message: { ...erin.messages[0]!, id: 3, parentId: 2 },
      head: 3,
      updatedAt: 30,
      key: "k0",
    });
    const plan: MemoryRecord = {
      revision: 1,
      path: "plan.md",
      kind: "text",
      content: "the chat's plan",
      schema: null,
      by: "app",
      chatId: "c1",
      at: 40,
    };
    const own = [
      await store.writeMemory!({ userId: "erin", chatId: "c1", expected: 0, records: [plan] }),
      await store.loadMemory!("erin", "c1"),
    ];
    const loom = await Loom.open({ store, counter: "heuristic" });
    const chat = await loom.user("erin").open("c1");
    await loom.user("erin").memory.write({ revision: 0, path: "prefs.md", text: "likes rain" });
    const added = (await chat.append({ role: "user", content: "and tomorrow?" })).id;
    const memory = { own, users: (await loom.user("erin").memory.read()).documents.map((d) => d.path) };
    await loom.close();
    const db = await openRaw("v1", DB_VERSION);
    const layout = {
      version: db.version,
      stores: [...db.objectStoreNames],
      memoryIndexes: [...db.transaction("memory").objectStore("memory").indexNames],
    };
    db.close();
    const reopened = indexedDBStore({ name: "v1" });
    const after = {
      count: (await reopened.loadChat("erin", "c1"))!.chat.messageCount,
      zoe: (await reopened.loadChat("zoe", "c1"))!.messages.length,
    };
    await reopened.close();
    return { erin, zoe, vectors, retry, added, memory, layout, after };
  },
  /** A store open when a newer release upgrades the database (another tab): its next call. */
  async newer() {
    const store = indexedDBStore({ name: "newer" });
    await store.listChats("u");
    (await openRaw("newer", DB_VERSION + 1)).close();
    try {
      await store.listChats("u");
      return "ok";
    } catch (e) {
      return error(e);
    }
  },
  async usage() {
    return (await navigator.storage.estimate()).usage ?? 0;
  },
};

Object.assign(globalThis, { ctxloomPage: page, ctxloomReady: true });
