// A Worker with one Durable Object per user holding that user's chats (the documented
// setup of ctxloom/cloudflare). Requests: POST JSON { op, ... } to /?user=<id>.
// @ts-expect-error: the module exists only inside workerd
import { DurableObject } from "cloudflare:workers";
import { Loom, type Chat, type ChatExport, type MessageInput } from "../../src/index.workerd.js";
import { durableObjectStore, type DurableObjectStorageLike } from "../../src/cloudflare.js";
import { buildTextsChat, textsOf, type TextsSpec } from "../store/texts-spec.js";

interface Env {
  CHATS: { idFromName(name: string): unknown; get(id: unknown): { fetch(request: Request): Promise<Response> } };
}

export class UserChatsObject extends (DurableObject as new (ctx: unknown, env: Env) => object) {
  readonly #loom: Promise<Loom>;
  constructor(ctx: { storage: DurableObjectStorageLike }, env: Env) {
    super(ctx, env);
    this.#loom = Loom.open({ store: durableObjectStore(ctx.storage) });
  }

  async fetch(request: Request): Promise<Response> {
    const user = new URL(request.url).searchParams.get("user")!;
    const body = (await request.json()) as {
      op: string; chat?: string; content?: MessageInput["content"]; role?: "user" | "assistant"; model?: string; spec?: TextsSpec; export?: ChatExport;
    };
    const loom = await this.#loom;
    const chats = loom.user(user);
    const texts = async (chat: Chat) => Response.json({ id: chat.id, texts: textsOf(chat), export: chat.export(), list: await chats.list() });
    try {
      switch (body.op) {
        case "create":
          return Response.json({ id: (await chats.create({ title: "from a Worker", model: body.model ?? "gpt-4o" })).id, engine: loom.engine });
        case "append": {
          const chat = await chats.open(body.chat!);
          const m = await chat.append({ role: body.role ?? "user", content: body.content! });
          return Response.json({ id: m.id, parentId: m.parentId });
        }
        case "dump": {
          const chat = await chats.open(body.chat!);
          const ctx = await chat.buildContext();
          const parts = chat.path().filter((m) => m.parts).map((m) => ({ id: m.id, tokens: m.tokens, parts: m.parts }));
          return Response.json({ count: chat.messageCount, path: chat.path().map((m) => m.content), head: chat.head, total: ctx.usage.total, list: await chats.list(), ...(parts.length ? { parts } : {}) });
        }
        // Every text of a chat (test/store/texts-spec.ts): made here, read back after a restart, exported and imported.
        case "texts-build":
          return texts(await buildTextsChat(chats, body.spec!));
        case "texts-import":
          return Response.json({ id: (await chats.import(body.export!)).id });
        case "texts-read":
          return texts(await chats.open(body.chat!));
        default:
          return new Response("unknown op", { status: 400 });
      }
    } catch (error) {
      return Response.json({ error: (error as { code?: string }).code ?? String(error) }, { status: 500 });
    }
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const user = new URL(request.url).searchParams.get("user") ?? "anonymous";
    return env.CHATS.get(env.CHATS.idFromName(user)).fetch(request);
  },
};
