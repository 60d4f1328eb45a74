// The Worker of bench/durable-object.bench.ts: one Durable Object per user holding that user's
// chats (the setup of ctxloom/cloudflare), with what the bench asks of it: fill a chat with n
// messages, open it cold and build its context, report the object's database size; take the
// object back to what version 4 of the schema made (no chunks of numbers).
// @ts-expect-error: the module exists only inside workerd
import { DurableObject } from "cloudflare:workers";
import { Loom, type Message } from "../src/index.workerd.js";
import { durableObjectStore, type DurableObjectStorageLike } from "../src/cloudflare.js";
import type { Store } from "../src/store-entry.js";

type Namespace = {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
};

export class BenchChats extends (DurableObject as new (ctx: unknown, env: unknown) => object) {
  readonly #storage: DurableObjectStorageLike & { sql: { databaseSize: number } };
  readonly #store: Store;
  readonly #loom: Promise<Loom>;
  constructor(ctx: { storage: DurableObjectStorageLike & { sql: { databaseSize: number } } }, env: unknown) {
    super(ctx, env);
    this.#storage = ctx.storage;
    this.#store = durableObjectStore(ctx.storage);
    this.#loom = Loom.open({ store: this.#store });
  }

  async fetch(request: Request): Promise<Response> {
    const body = (await request.json()) as { op: string; chat: string; from?: number; to?: number; texts?: string[] };
    const loom = await this.#loom;
    switch (body.op) {
      case "ping":
        return Response.json({ engine: loom.engine });
      case "fill": {
        // Messages from..to-1 of a linear chat, user and assistant in turn, texts taken in order
        // (in requests of a few thousand: one import of the whole chat would hold it all in the isolate).
        const texts = body.texts!;
        const [from, to] = [body.from!, body.to!];
        if (from === 0)
          this.#store.createChat({
            id: body.chat,
            userId: "u",
            title: "bench",
            model: "gpt-4o",
            system: null,
            createdAt: 0,
            updatedAt: 0,
            messageCount: 0,
            head: null,
            options: {},
          });
        for (let id = from; id < to; id++) {
          const content = texts[id % texts.length]!;
          const m: Message = {
            id,
            parentId: id === 0 ? null : id - 1,
            role: id % 2 ? "assistant" : "user",
            content,
            priority: "normal",
            tokens: 4 + Math.ceil(content.length / 4),
            createdAt: 1_700_000_000_000 + id * 1000,
            kind: "message",
          };
          this.#store.appendMessage({ userId: "u", chatId: body.chat, message: m, head: id, updatedAt: m.createdAt });
        }
        return Response.json({ databaseSize: this.#storage.sql.databaseSize });
      }
      // The object as version 4 left it: no chunks of numbers, no table for them, version 4 its last.
      case "version4":
        this.#storage.sql.exec("DROP TABLE ctxloom_message_numbers");
        this.#storage.sql.exec("UPDATE ctxloom_schema SET version = 4 WHERE version = 5"); // (a new object records its version alone)
        return Response.json({ databaseSize: this.#storage.sql.databaseSize });
      case "open": {
        const chat = await loom.user("u").open(body.chat);
        const ctx = await chat.buildContext({ input: "And then?" });
        // The core's linear memory (the trees' nodes): WebAssembly memory, which the inspector's heap figures leave out.
        const core = loom.engineImpl.memoryBytes();
        return Response.json({
          messages: chat.messageCount,
          sent: ctx.messages.length,
          databaseSize: this.#storage.sql.databaseSize,
          core,
        });
      }
      default:
        return new Response("unknown op", { status: 400 });
    }
  }
}

export default {
  async fetch(request: Request, env: { CHATS: Namespace }): Promise<Response> {
    const user = new URL(request.url).searchParams.get("user") ?? "u";
    return env.CHATS.get(env.CHATS.idFromName(user)).fetch(request);
  },
};
