// The Worker of bench/growth.bench.ts: a chat's messages written through a Loom on a Durable
// Object's store and on D1, and the database's size after.
// @ts-expect-error: the module exists only inside workerd
import { DurableObject } from "cloudflare:workers";
import { Loom } from "../src/index.workerd.js";
import { d1Store, durableObjectStore, type D1DatabaseLike, type DurableObjectStorageLike } from "../src/cloudflare.js";
import type { Store } from "../src/store-entry.js";

type Namespace = {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
};
interface Env {
  CHATS: Namespace;
  DB: D1DatabaseLike;
}
type Fill = { texts: string[]; chats: number; perChat: number; from: number };

/** Chats `from` to `from + chats - 1` of `perChat` messages each, through a Loom on `store`. */
async function fill(store: Store, body: Fill): Promise<void> {
  const loom = await Loom.open({ store, counter: "heuristic", recall: false });
  for (let c = body.from; c < body.from + body.chats; c++) {
    const chat = await loom.user("u").create({ id: `c${c}` });
    for (let i = 0; i < body.perChat; i++)
      await chat.append({
        role: i % 2 ? "assistant" : "user",
        content: body.texts[(c * body.perChat + i) % body.texts.length]!,
      });
  }
  await loom.close();
}

export class GrowthChats extends (DurableObject as new (ctx: unknown, env: unknown) => object) {
  readonly #storage: DurableObjectStorageLike & { sql: { databaseSize: number } };
  constructor(ctx: { storage: DurableObjectStorageLike & { sql: { databaseSize: number } } }, env: unknown) {
    super(ctx, env);
    this.#storage = ctx.storage;
  }

  async fetch(request: Request): Promise<Response> {
    await fill(durableObjectStore(this.#storage), (await request.json()) as Fill);
    return Response.json({ bytes: this.#storage.sql.databaseSize });
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname === "/do") return env.CHATS.get(env.CHATS.idFromName("u")).fetch(request);
    await fill(d1Store(env.DB), (await request.json()) as Fill);
    // (D1 refuses PRAGMA page_count; every answer's meta says the database's size.)
    const run = (env.DB.prepare("SELECT 1") as unknown as { run(): Promise<{ meta: { size_after: number } }> }).run();
    return Response.json({ bytes: (await run).meta.size_after });
  },
};
