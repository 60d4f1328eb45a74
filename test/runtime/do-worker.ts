// A Worker with one Durable Object per user holding that user's chats (the documented
// setup of ctxloom/cloudflare). Requests: POST JSON { op, ... } to /?user=<id>.
// @ts-expect-error: the module exists only inside workerd
import { DurableObject } from "cloudflare:workers";
import { Loom, type Chat, type ChatExport, type MessageInput } from "../../src/index.workerd.js";
import { durableObjectStore, type DurableObjectStorageLike } from "../../src/cloudflare.js";
import { buildTextsChat, textsOf, type TextsSpec } from "../store/texts-spec.js";
import { contract, migrateV2, paged, retention, rowLimits, sqliteHere, withoutSqlite } from "./do-store-ops.js";
import { chunks } from "./do-chunks.js";
import { memoryApiCases, memoryBadCases } from "../memory/memory-cases.js";
import { memoryContextCases } from "../memory/context-cases.js";
import { attackCases } from "../adapters/memory-attack-cases.js";

type Namespace = {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
};
interface Env {
  CHATS: Namespace;
  KV_CHATS: Namespace;
}

/** The tables of schema version 1 as released (before append keys), frozen here, with the prefix "old_". */
const V1 = [
  `CREATE TABLE old_schema (version INTEGER NOT NULL)`,
  `INSERT INTO old_schema (version) VALUES (1)`,
  `CREATE TABLE old_chats (user_id TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, model TEXT NOT NULL, system TEXT,
    options TEXT NOT NULL, head INTEGER, message_count INTEGER NOT NULL, created_at REAL NOT NULL, updated_at REAL NOT NULL,
    PRIMARY KEY (user_id, id)) WITHOUT ROWID`,
  `CREATE INDEX old_chats_user ON old_chats (user_id, updated_at DESC)`,
  `CREATE TABLE old_messages (user_id TEXT NOT NULL, chat_id TEXT NOT NULL, id INTEGER NOT NULL, parent INTEGER, role TEXT NOT NULL, content TEXT NOT NULL,
    priority TEXT NOT NULL, tokens INTEGER NOT NULL, name TEXT, tool_calls TEXT, tool_call_id TEXT, kind TEXT NOT NULL,
    covers_first INTEGER, covers_last INTEGER, parts TEXT, created_at REAL NOT NULL, PRIMARY KEY (user_id, chat_id, id)) WITHOUT ROWID`,
  `CREATE TABLE old_embeddings (user_id TEXT NOT NULL, chat_id TEXT NOT NULL, message_id INTEGER NOT NULL, embedder TEXT NOT NULL,
    dimension INTEGER NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (user_id, chat_id, embedder, dimension, message_id)) WITHOUT ROWID`,
];

export class UserChatsObject extends (DurableObject as new (ctx: unknown, env: Env) => object) {
  readonly #loom: Promise<Loom>;
  readonly #storage: DurableObjectStorageLike;
  constructor(ctx: { storage: DurableObjectStorageLike }, env: Env) {
    super(ctx, env);
    this.#storage = ctx.storage;
    this.#loom = Loom.open({ store: durableObjectStore(ctx.storage) });
  }

  async fetch(request: Request): Promise<Response> {
    const user = new URL(request.url).searchParams.get("user")!;
    const body = (await request.json()) as {
      op: string;
      chat?: string;
      content?: MessageInput["content"];
      role?: "user" | "assistant";
      model?: string;
      spec?: TextsSpec;
      export?: ChatExport;
      key?: string;
    };
    const loom = await this.#loom;
    const chats = loom.user(user);
    const texts = async (chat: Chat) =>
      Response.json({ id: chat.id, texts: textsOf(chat), export: chat.export(), list: await chats.list() });
    try {
      switch (body.op) {
        case "create":
          return Response.json({
            id: (await chats.create({ title: "from a Worker", model: body.model ?? "gpt-4o" })).id,
            engine: loom.engine,
          });
        case "append": {
          const chat = await chats.open(body.chat!);
          const m = await chat.append(
            { role: body.role ?? "user", content: body.content! },
            body.key === undefined ? undefined : { key: body.key },
          );
          return Response.json({ id: m.id, parentId: m.parentId, count: chat.messageCount });
        }
        case "dump": {
          const chat = await chats.open(body.chat!);
          const ctx = await chat.buildContext();
          const parts = chat
            .path()
            .filter((m) => m.parts)
            .map((m) => ({ id: m.id, tokens: m.tokens, parts: m.parts }));
          return Response.json({
            count: chat.messageCount,
            path: chat.path().map((m) => m.content),
            head: chat.head,
            total: ctx.usage.total,
            list: await chats.list(),
            ...(parts.length ? { parts } : {}),
          });
        }
        // Every text of a chat (test/store/texts-spec.ts): made here, read back after a restart, exported and imported.
        case "texts-build":
          return texts(await buildTextsChat(chats, body.spec!));
        case "texts-import":
          return Response.json({ id: (await chats.import(body.export!)).id });
        case "texts-read":
          return texts(await chats.open(body.chat!));
        // A database of schema version 1 (tables "old_*", one chat of one message), then a Loom on it.
        case "v1": {
          for (const statement of V1) this.#storage.sql.exec(statement);
          this.#storage.sql.exec(
            `INSERT INTO old_chats VALUES (?, 'c1', 'old', 'gpt-4o', NULL, '{}', 0, 1, 1, 2)`,
            user,
          );
          this.#storage.sql.exec(
            `INSERT INTO old_messages VALUES (?, 'c1', 0, NULL, 'user', 'hi', 'normal', 4, NULL, NULL, NULL, 'message', NULL, NULL, NULL, 10)`,
            user,
          );
          return Response.json({ ok: true });
        }
        case "v1-append": {
          const old = await Loom.open({ store: durableObjectStore(this.#storage, { tablePrefix: "old_" }) });
          const chat = await old.user(user).open("c1");
          const first = await chat.append({ role: "assistant", content: "hello" }, { key: body.key! });
          const retry = await chat.append({ role: "assistant", content: "hello" }, { key: body.key! });
          const version = this.#storage.sql.exec("SELECT version FROM old_schema").toArray()[0]!.version;
          const keys = this.#storage.sql.exec("SELECT id, key FROM old_messages ORDER BY id").toArray();
          const path = chat.path().map((m) => m.content);
          await old.close();
          return Response.json({ first: first.id, retry: retry.id, path, version, keys });
        }
        // The store's own tests (do-store-ops.ts).
        case "v2-migrate":
          return Response.json(await migrateV2(this.#storage));
        case "contract":
          return Response.json(await contract(this.#storage));
        case "paged":
          return Response.json(await paged(this.#storage));
        case "chunks":
          return Response.json(await chunks(this.#storage));
        case "retention":
          return Response.json(await retention(this.#storage));
        case "row-limits":
          return Response.json(await rowLimits(this.#storage));
        case "sqlite-here":
          return Response.json(sqliteHere());
        // Issue 34: a user's working memory through the API, in this object's storage (tables "memory_api_").
        case "memory-api": {
          const own = await Loom.open({
            store: durableObjectStore(this.#storage, { tablePrefix: "memory_api_" }),
            counter: "heuristic",
          });
          const out = {
            api: await memoryApiCases(own, user),
            bad: await memoryBadCases(own, `${user}-bad`),
            context: await memoryContextCases(loom, `${user}-ctx`),
          };
          await own.close();
          const attacked = await Loom.open({
            store: durableObjectStore(this.#storage, { tablePrefix: "memory_attacks_" }),
            counter: "heuristic",
          });
          const rows = () =>
            this.#storage.sql
              .exec("SELECT user, scope, revision, path, content FROM memory_attacks_memory ORDER BY 1, 2, 3, 4")
              .toArray();
          Object.assign(out, { attacks: await attackCases(attacked, rows) });
          await attacked.close();
          return Response.json(out);
        }
        default:
          return new Response("unknown op", { status: 400 });
      }
    } catch (error) {
      return Response.json({ error: (error as { code?: string }).code ?? String(error) }, { status: 500 });
    }
  }
}

/** A class declared with key-value storage (wrangler's new_classes): its ctx.storage has no SQLite. */
export class KeyValueObject extends (DurableObject as new (ctx: unknown, env: Env) => object) {
  readonly #storage: DurableObjectStorageLike;
  constructor(ctx: { storage: DurableObjectStorageLike }, env: Env) {
    super(ctx, env);
    this.#storage = ctx.storage;
  }

  async fetch(): Promise<Response> {
    return Response.json(withoutSqlite(this.#storage));
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const user = url.searchParams.get("user") ?? "anonymous";
    const ns = url.searchParams.has("kv") ? env.KV_CHATS : env.CHATS;
    return ns.get(ns.idFromName(user)).fetch(request);
  },
};
