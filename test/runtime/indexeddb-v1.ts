// The browser store's IndexedDB database as release 1 made it (DB_VERSION 1: chats, messages,
// embeddings; no memory), frozen here, with rows in its format: what the upgrade to the current
// version must keep. Runs in the page (browser-store-page.ts).

/** Opens `name` at `version`, running `upgrade` when it is made or upgraded; a promise of the connection. */
export function openRaw(
  name: string,
  version: number,
  upgrade: (db: IDBDatabase) => void = () => undefined,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, version);
    request.onupgradeneeded = () => upgrade(request.result);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const call = { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Porto"}' } };

/** Makes database `name` as release 1 did, with user "erin"'s chat "c1" (every kind of field, keys, a vector) and "zoe"'s. */
export async function makeV1(name: string): Promise<void> {
  const db = await openRaw(name, 1, (d) => {
    d.createObjectStore("chats", { keyPath: ["user", "id"] });
    d.createObjectStore("messages", { keyPath: ["user", "chat", "id"] }).createIndex("byKey", ["user", "chat", "key"], {
      unique: true,
    });
    d.createObjectStore("embeddings", { keyPath: ["user", "chat", "embedder", "dimension", "message"] });
  });
  const tx = db.transaction(["chats", "messages", "embeddings"], "readwrite");
  const chats = tx.objectStore("chats");
  chats.put({
    user: "erin",
    id: "c1",
    title: "old",
    model: "gpt-4o",
    system: "be brief",
    options: { historyLimits: true },
    head: 2,
    created: 1.5,
    updated: 20,
    count: 3,
  });
  chats.put({
    user: "zoe",
    id: "c1",
    title: "hers",
    model: "gpt-4o",
    system: null,
    options: {},
    head: 0,
    created: 3,
    updated: 4,
    count: 1,
  });
  const messages = tx.objectStore("messages");
  const m = { priority: "normal", kind: "message" };
  messages.put({
    ...m,
    user: "erin",
    chat: "c1",
    id: 0,
    parent: null,
    role: "user",
    content: "weather?",
    tokens: 9,
    created: 10,
    key: "k0",
    name: "ann",
  });
  messages.put({
    ...m,
    user: "erin",
    chat: "c1",
    id: 1,
    parent: 0,
    role: "assistant",
    content: "",
    tokens: 7,
    created: 11,
    toolCalls: [call],
  });
  messages.put({
    ...m,
    user: "erin",
    chat: "c1",
    id: 2,
    parent: 1,
    role: "tool",
    content: "sunny",
    tokens: 4,
    created: 12.25,
    toolCallId: "call_1",
  });
  messages.put({
    ...m,
    user: "zoe",
    chat: "c1",
    id: 0,
    parent: null,
    role: "user",
    content: "hers",
    tokens: 3,
    created: 5,
    key: "k0",
  });
  tx.objectStore("embeddings").put({
    user: "erin",
    chat: "c1",
    embedder: "e",
    dimension: 2,
    message: 0,
    vector: new Float32Array([1, -2]),
  });
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}
