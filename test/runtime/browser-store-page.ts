// The page of test/runtime/browser-store.test.ts: a Loom on the browser's IndexedDB store, and
// what the test asks of it, as functions on `window` (each opens the store anew, as a page load does).
import { Loom, type Message } from "../../src/index.js";
import { indexedDBStore } from "../../src/browser.js";
import { contractChat, contractState, existenceCases, runBadCalls } from "../store/contract-cases.js";
import { erasureCases, openFor, pruneCases } from "../store/retention-cases.js";

const open = () => Loom.open({ store: indexedDBStore(), counting: "heuristic", recall: false });
const error = (e: unknown) => ({ code: (e as { code?: string }).code ?? `not coded: ${String(e)}`, message: String((e as Error).message) });
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
    return { messages: Array.from({ length: chat.messageCount }, (_, i) => chat.get(i)).map((m: Message) => [m.id, m.parentId, m.content]), head: chat.head };
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
    const store = indexedDBStore({ name: "contract" });
    await contractChat(store);
    const before = await contractState(store);
    const codes = await runBadCalls(store);
    const unchanged = JSON.stringify(await contractState(store)) === JSON.stringify(before);
    const existing = indexedDBStore({ name: "exists" });
    await contractChat(existing);
    return { codes, unchanged, exists: await existenceCases(existing) };
  },
  async retention() {
    const erase = await erasureCases(openFor(Loom), indexedDBStore({ name: "erase" }));
    const prune = await pruneCases(openFor(Loom), indexedDBStore({ name: "prune" }));
    return { erase, prune };
  },
  async usage() {
    return (await navigator.storage.estimate()).usage ?? 0;
  },
};

Object.assign(globalThis, { ctxloomPage: page, ctxloomReady: true });
