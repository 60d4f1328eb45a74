// A Worker whose Durable Object keeps a user's chats (ctxloom/cloudflare), for what a chat
// product needs of the store: a client's id and metadata, a paged list, and redaction.
// Requests: POST JSON { op, ... } to /?user=<id>.
// @ts-expect-error: the module exists only inside workerd
import { DurableObject } from "cloudflare:workers";
import { CtxloomError, Loom } from "../../src/index.workerd.js";
import { durableObjectStore, type DurableObjectStorageLike } from "../../src/cloudflare.js";

type Body = {
  op: string;
  chat?: string;
  id?: number;
  metadata?: Record<string, string | number | boolean | null>;
  content?: string;
  role?: "user" | "assistant";
  limit?: number;
  cursor?: string;
};

export class ProductChats extends (DurableObject as new (ctx: unknown, env: unknown) => object) {
  readonly #loom: Promise<Loom>;
  readonly #storage: DurableObjectStorageLike;
  constructor(ctx: { storage: DurableObjectStorageLike }, env: unknown) {
    super(ctx, env);
    this.#storage = ctx.storage;
    this.#loom = Loom.open({ store: durableObjectStore(ctx.storage), recall: true });
  }

  async fetch(request: Request): Promise<Response> {
    const chats = (await this.#loom).user(new URL(request.url).searchParams.get("user")!);
    const b = (await request.json()) as Body;
    try {
      switch (b.op) {
        case "create": {
          const chat = await chats.create({ id: b.chat!, metadata: b.metadata! });
          return Response.json({ id: chat.id, metadata: chat.metadata });
        }
        case "append": {
          const m = await (await chats.open(b.chat!)).append({ role: b.role ?? "user", content: b.content! });
          return Response.json({ id: m.id });
        }
        case "delete":
          await chats.delete(b.chat!);
          return Response.json({ list: (await chats.list()).map((c) => c.id) });
        case "list":
          return Response.json(await chats.page({ limit: b.limit!, ...(b.cursor ? { after: b.cursor } : {}) }));
        case "redact": {
          const chat = await chats.open(b.chat!);
          const m = await chat.redact(b.id!);
          return Response.json({ content: m.content, path: chat.path().map((x) => x.content) });
        }
        // Every text the object's tables hold, as SQL reads them.
        case "tables": {
          const sql = this.#storage.sql as unknown as { exec(q: string): { toArray(): Record<string, unknown>[] } };
          return Response.json({
            messages: sql.exec("SELECT content, tool_calls, parts FROM ctxloom_messages").toArray(),
            embeddings: sql.exec("SELECT message FROM ctxloom_embeddings").toArray().length,
          });
        }
        // What a store would erase old bytes with: workerd refuses each of them to a Worker.
        case "erasers": {
          const out: Record<string, string> = {};
          const sql = this.#storage.sql as unknown as { exec(q: string): { toArray(): unknown[] } };
          for (const q of ["PRAGMA secure_delete = ON", "VACUUM", "PRAGMA wal_checkpoint(TRUNCATE)"]) {
            try {
              out[q] = JSON.stringify(sql.exec(q).toArray());
            } catch (error) {
              out[q] = `refused: ${String((error as Error).message)}`;
            }
          }
          return Response.json(out);
        }
        default:
          return new Response("unknown op", { status: 400 });
      }
    } catch (error) {
      if (error instanceof CtxloomError) return Response.json({ code: error.code, message: error.message });
      throw error;
    }
  }
}

export default {
  async fetch(
    request: Request,
    env: { CHATS: { idFromName(name: string): unknown; get(id: unknown): { fetch(r: Request): Promise<Response> } } },
  ) {
    const user = new URL(request.url).searchParams.get("user")!;
    return env.CHATS.get(env.CHATS.idFromName(user)).fetch(request);
  },
};
