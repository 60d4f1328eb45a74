// Issue 21, item 5: an append whose outcome is unknown. A proxy between the store and a real
// PostgreSQL server closes the connection after the server committed the append and before its
// answer reaches the store. The store says so (STORE_OUTCOME_UNKNOWN, not "nothing was changed"),
// the Loom retries under the append's key and gets the stored message back: never a duplicate.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CtxloomError, Loom, type Message } from "../../src/index.js";
import { postgresStore } from "../../src/postgres.js";
import { ENGINES } from "../helpers.js";
import { noPostgresNotice, startCluster, type Cluster } from "./pg-cluster.js";
import { startProxy, type Proxy } from "./pg-proxy.js";

const skip = noPostgresNotice();
let cluster: Cluster;
let proxy: Proxy;
let prefixes = 0;

/** How many rows of the chat hold `content`, read straight from the server (not through the proxy). */
async function rowsHolding(prefix: string, content: string): Promise<number> {
  const client = new pg.Client(cluster.url);
  await client.connect();
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${prefix}messages WHERE content = $1`, [content]);
  await client.end();
  return rows[0].n as number;
}

const failure = async (p: Promise<unknown>): Promise<CtxloomError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CtxloomError);
  return e as CtxloomError;
};

describe.skipIf(skip)("an append whose answer is lost after the commit (PostgreSQL)", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    proxy = await startProxy(cluster.url);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    cluster?.stop();
  });

  it("the store says the outcome is unknown, and a retry under the same key answers with the message stored", async () => {
    const prefix = `o${++prefixes}_`;
    const store = postgresStore(proxy.url, { tablePrefix: prefix, max: 1 });
    await store.createChat({
      id: "c",
      userId: "u",
      title: "t",
      model: "gpt-4o",
      system: null,
      createdAt: 1,
      updatedAt: 1,
      messageCount: 0,
      head: null,
      options: {},
    });
    const m: Message = {
      id: 0,
      parentId: null,
      role: "user",
      content: "sent once",
      priority: "normal",
      tokens: 5,
      createdAt: 2,
      kind: "message",
    };
    const lost = proxy.loseNextReply(`${prefix}append`);
    const e = await failure(
      Promise.resolve(store.appendMessage({ userId: "u", chatId: "c", message: m, head: 0, updatedAt: 2, key: "k1" })),
    );
    await lost;
    expect(e.code).toBe("STORE_OUTCOME_UNKNOWN");
    expect(e.message).toMatch(/may or may not have been stored/);
    expect(await rowsHolding(prefix, "sent once")).toBe(1); // it was committed
    // The retry (same message, same key) finds it; so does one with a later id.
    expect(
      await store.appendMessage({ userId: "u", chatId: "c", message: m, head: 0, updatedAt: 2, key: "k1" }),
    ).toEqual({ ok: false, existing: m });
    expect(
      await store.appendMessage({
        userId: "u",
        chatId: "c",
        message: { ...m, id: 1 },
        head: 1,
        updatedAt: 3,
        key: "k1",
      }),
    ).toEqual({ ok: false, existing: m });
    expect(await rowsHolding(prefix, "sent once")).toBe(1);
    await store.close();
  });

  for (const engine of ENGINES) {
    it(`${engine}: chat.append retries under its own key and returns the message stored, once`, async () => {
      const prefix = `o${++prefixes}_`;
      const loom = await Loom.open({
        engine,
        store: postgresStore(proxy.url, { tablePrefix: prefix, max: 1 }),
        counter: "heuristic",
      });
      const chat = await loom.user("u").create();
      await chat.append({ role: "user", content: "Lisbon or Porto?" });
      const lost = proxy.loseNextReply(`${prefix}append`);
      const m = await chat.append({ role: "assistant", content: "Porto." });
      await lost;
      expect(m).toMatchObject({ id: 1, parentId: 0, content: "Porto." });
      expect([chat.messageCount, chat.head]).toEqual([2, 1]);
      expect(await rowsHolding(prefix, "Porto.")).toBe(1);
      await chat.append({ role: "user", content: "Why?" });
      await loom.close();
      const again = await Loom.open({
        engine,
        store: postgresStore(cluster.url, { tablePrefix: prefix }),
        counter: "heuristic",
      });
      expect((await again.user("u").open(chat.id)).path().map((x) => x.content)).toEqual([
        "Lisbon or Porto?",
        "Porto.",
        "Why?",
      ]);
      await again.close();
    });
  }

  it("a server that stays unreachable: STORE_OUTCOME_UNKNOWN naming the key, nothing applied; the caller's retry under it returns the stored message", async () => {
    const prefix = `o${++prefixes}_`;
    const loom = await Loom.open({
      store: postgresStore(proxy.url, { tablePrefix: prefix, max: 1 }),
      counter: "heuristic",
    });
    const chat = await loom.user("u").create();
    for (const [content, key] of [
      ["with my key", "request-7"],
      ["with the Loom's key", undefined],
    ] as const) {
      const before = chat.messageCount;
      const lost = proxy.loseNextReply(`${prefix}append`, { thenRefuse: true });
      const e = await failure(chat.append({ role: "user", content }, key === undefined ? undefined : { key }));
      await lost;
      expect(e.code).toBe("STORE_OUTCOME_UNKNOWN");
      expect(e.message).toMatch(/a retry failed too .* may or may not have been stored/);
      const named = /chat\.append\(message, \{ key: ("[^"]+") \}\)/.exec(e.message)?.[1];
      expect(named).toBeDefined();
      if (key !== undefined) expect(JSON.parse(named!)).toBe(key);
      expect(chat.messageCount).toBe(before); // nothing applied: the chat does not know
      proxy.refuse = false;
      const m = await chat.append({ role: "user", content }, { key: JSON.parse(named!) as string });
      expect(m).toMatchObject({ id: before, content });
      expect([chat.messageCount, chat.head]).toEqual([before + 1, before]);
      expect(await rowsHolding(prefix, content)).toBe(1);
      await chat.append({ role: "assistant", content: `answer ${before}` });
    }
    await loom.close();
  });
});
