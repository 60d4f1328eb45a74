// A Worker on D1 (the setup of ctxloom/cloudflare's d1Store): every request opens its own Loom on
// the database, as separate Worker invocations and isolates do, so that requests running at once
// are writers as independent as two servers. Requests: POST JSON { op, ... } to /.
import { Loom, type Chat, type ChatExport } from "../../src/index.workerd.js";
import { d1Store, type D1DatabaseLike } from "../../src/cloudflare.js";
import type { Message } from "../../src/index.js";
import { runContract } from "../store/contract-run.js";
import { existsThroughLooms } from "../store/exists-cases.js";
import { erasureCases, memoryErasureCases, openFor, pruneCases } from "../store/retention-cases.js";
import { memoryApiCases, memoryBadCases } from "../memory/memory-cases.js";
import { memoryContextCases } from "../memory/context-cases.js";
import { attackCases } from "../adapters/memory-attack-cases.js";
import { memoryRaces } from "./d1-memory-ops.js";
import { buildTextsChat, textsOf, type TextsSpec } from "../store/texts-spec.js";

interface Env {
  DB: D1DatabaseLike & { prepare(sql: string): { bind(...v: unknown[]): { raw(): Promise<unknown[][]> } } };
}

const open = openFor(Loom);
const error = (e: unknown) => ({
  code: (e as { code?: string }).code ?? `not coded: ${String(e)}`,
  message: String((e as Error).message),
});
const rows = async (env: Env, sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .raw();

/** The tables' layout (columns, indexes) with the prefix taken out. */
async function layout(env: Env, p: string): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const t of ["users", "chats", "messages", "embeddings", "memory", "message_numbers", "schema"]) {
    out[t] = await rows(env, `PRAGMA table_info(${p}${t})`);
    out[`${t} indexes`] = (await rows(env, `PRAGMA index_list(${p}${t})`)).map((r) => [
      String(r[1]).replace(p, ""),
      ...r.slice(2),
    ]);
  }
  return out;
}

async function handle(env: Env, body: Record<string, unknown>): Promise<unknown> {
  const store = (p = "ctxloom_") => d1Store(env.DB, { tablePrefix: p });
  switch (body.op) {
    case "create":
      return { id: (await (await open(store())).user("u").create({ id: body.chat as string })).id };
    // A Loom of its own opens the chat and appends under the head it read.
    case "append": {
      const loom = await open(store());
      const chat = await loom.user("u").open(body.chat as string);
      const m = await chat.append({ role: "user", content: body.content as string });
      return { id: m.id, parentId: m.parentId };
    }
    case "dump": {
      const chat = await (await open(store())).user("u").open(body.chat as string);
      const all = Array.from({ length: chat.messageCount }, (_, id) => chat.get(id));
      return { messages: all.map((m: Message) => [m.id, m.parentId, m.content]), leaves: chat.leaves().length };
    }
    // One id appended by 20 writers at once through the store itself: one lands.
    case "race": {
      const s = store("race_");
      await s.createChat({
        id: "r",
        userId: "u",
        title: "",
        model: "gpt-4o",
        system: null,
        createdAt: 1,
        updatedAt: 1,
        messageCount: 0,
        head: null,
        options: {},
      });
      const m = (i: number): Message => ({
        id: 0,
        parentId: null,
        role: "user",
        content: `w${i}`,
        priority: "normal",
        tokens: 3,
        createdAt: 2,
        kind: "message",
      });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store("race_").appendMessage({
            userId: "u",
            chatId: "r",
            message: m(i),
            head: 0,
            updatedAt: 2,
            key: `key-${i}`,
          }),
        ),
      );
      const retry = await s.appendMessage({
        userId: "u",
        chatId: "r",
        message: m(answers.findIndex((a) => a.ok)),
        head: 0,
        updatedAt: 3,
        key: `key-${answers.findIndex((a) => a.ok)}`,
      });
      return {
        answers: answers.map((a) => (a.ok ? "ok" : "size" in a ? `size ${a.size}` : "existing")).sort(),
        retry,
        count: (await s.loadChat("u", "r"))!.chat.messageCount,
      };
    }
    // D1 answers nothing to an append it did commit (as when the connection is lost): the Loom
    // retries under the append's key, and the message is stored once.
    case "lost-answer": {
      let lose = 1;
      const db: D1DatabaseLike = {
        prepare: (sql) => env.DB.prepare(sql),
        async batch(statements) {
          const answers = await env.DB.batch(statements);
          if (statements.length === 3 && lose-- > 0) throw new Error("Network connection lost.");
          return answers;
        },
      };
      const loom = await open(d1Store(db, { tablePrefix: "lost_" }));
      const chat = await loom.user("u").create();
      const m = await chat.append({ role: "user", content: "once" });
      const stored = (await store("lost_").loadChat("u", chat.id))!.messages.map((x) => x.content);
      const direct = await Promise.resolve(
        d1Store(db, { tablePrefix: "lost_" }).appendMessage({
          userId: "u",
          chatId: chat.id,
          message: { ...m, id: 1, parentId: 0, content: "twice" },
          head: 1,
          updatedAt: 5,
          key: "k",
        }),
      ).then(() => "ok", error);
      lose = 1;
      const lost = await Promise.resolve(
        d1Store(db, { tablePrefix: "lost_" }).appendMessage({
          userId: "u",
          chatId: chat.id,
          message: { ...m, id: 1, parentId: 0, content: "twice" },
          head: 1,
          updatedAt: 5,
          key: "k2",
        }),
      ).then(() => "ok", error);
      return { id: m.id, stored, direct, lost: (lost as { code?: string }).code ?? lost };
    }
    case "contract": {
      let n = 0;
      const cases = await runContract(() => store(`contract${++n}_`));
      const looms = await existsThroughLooms(
        (x) => Loom.open({ store: x, counter: "heuristic" }),
        () => store("looms_"),
      );
      return { cases, looms };
    }
    case "layout": {
      await store("fresh_").listChats("anyone");
      return { layout: await layout(env, "fresh_"), versions: await rows(env, "SELECT version FROM fresh_schema") };
    }
    case "erase": {
      const out = await erasureCases(open, store("erase_"));
      const left = await Promise.all(
        ["chats", "users"].map((t) =>
          rows(env, `SELECT count(*) FROM erase_${t} WHERE ${t === "users" ? "id" : "user"} = 'alice'`),
        ),
      );
      const texts = await rows(env, "SELECT count(*) FROM erase_messages WHERE content LIKE '%SECRET-ERASE%'");
      const vectors = await rows(
        env,
        "SELECT count(*) FROM erase_embeddings WHERE chat NOT IN (SELECT key FROM erase_chats)",
      );
      return {
        out,
        rows: { chats: left[0]![0]![0], users: left[1]![0]![0], texts: texts[0]![0], orphanVectors: vectors[0]![0] },
      };
    }
    case "prune":
      return pruneCases(open, store("prune_"));
    // Issue 34 on D1: memories through an erasure and a prune, and no row of them left.
    case "memory-erase": {
      const out = await memoryErasureCases(open, store("memerase_"));
      const left = await rows(env, "SELECT user, scope, revision, path FROM memerase_memory ORDER BY 1, 2, 3, 4");
      return { out, left };
    }
    // A user's working memory through the API (tables "memory_api_"), every context carrying it, the memory tool's attacks.
    case "memory-api": {
      const user = body.user as string;
      const loom = await Loom.open({ store: store("memory_api_"), counter: "heuristic" });
      const out = {
        api: await memoryApiCases(loom, user),
        bad: await memoryBadCases(loom, `${user}-bad`),
        context: await memoryContextCases(loom, `${user}-ctx`),
      };
      await loom.close();
      const attacked = await Loom.open({ store: store("memory_attacks_"), counter: "heuristic" });
      Object.assign(out, { attacks: await attackCases(attacked) });
      await attacked.close();
      return out;
    }
    case "memory-races":
      return memoryRaces(
        (p) => store(p),
        (sql) => rows(env, sql),
      );
    // Chunks of numbers (sql-numbers.ts, written by a Durable Object's store; D1 writes none) go
    // where their messages change or go: a redaction (its chunk), a delete, an erasure, a prune.
    case "numbers": {
      const s = store("numbers_");
      const chat = (userId: string, id: string, updatedAt: number) =>
        s.importChat(
          {
            id,
            userId,
            title: "",
            model: "gpt-4o",
            system: null,
            createdAt: 1,
            updatedAt,
            messageCount: 2,
            head: 1,
            options: {},
          },
          [
            {
              id: 0,
              parentId: null,
              role: "user",
              content: "hi",
              priority: "normal",
              tokens: 3,
              createdAt: 1,
              kind: "message",
            },
            {
              id: 1,
              parentId: 0,
              role: "assistant",
              content: "hello",
              priority: "normal",
              tokens: 3,
              createdAt: 2,
              kind: "message",
            },
          ],
        );
      for (const [user, id, at] of [
        ["u", "a", 1e12],
        ["u", "b", 1e12],
        ["v", "c", 1e12],
        ["w", "d", 5],
      ] as const)
        await chat(user, id, at);
      for (const [key] of await rows(env, "SELECT key FROM numbers_chats")) {
        for (const chunk of [0, 1])
          await rows(env, "INSERT INTO numbers_message_numbers VALUES (?, ?, x'00')", key, chunk);
      }
      const left = async () =>
        (
          await rows(
            env,
            "SELECT c.id, n.chunk FROM numbers_message_numbers n JOIN numbers_chats c ON c.key = n.chat ORDER BY 1, 2",
          )
        ).map((r) => r.join(":"));
      const before = await left();
      await s.redactMessages!("u", "a", [{ id: 1, content: "[gone]", tokens: 1 }]);
      const redacted = await left();
      await s.deleteChat("u", "b");
      await s.eraseUser!("v");
      await s.pruneChats!({ idleBefore: 10, limit: 10 });
      return {
        before,
        redacted,
        after: await left(),
        orphans: (
          await rows(
            env,
            "SELECT count(*) FROM numbers_message_numbers WHERE chat NOT IN (SELECT key FROM numbers_chats)",
          )
        )[0]![0],
      };
    }
    case "texts-build": {
      const chats = (await open(store("texts_"))).user(body.user as string);
      const chat = await buildTextsChat(chats, body.spec as TextsSpec);
      return { id: chat.id, texts: textsOf(chat), export: chat.export() };
    }
    case "texts-read": {
      const chats = (await open(store("texts_"))).user(body.user as string);
      const read = async (c: Chat) => ({ texts: textsOf(c), export: c.export() });
      const copy = await chats.import(body.export as ChatExport);
      return { ...(await read(await chats.open(body.chat as string))), copy: await read(await chats.open(copy.id)) };
    }
    case "row-limits": {
      const loom = await Loom.open({ store: store("big_"), counter: "heuristic" });
      const chat = await loom.user("u").create({ title: "big", model: "gemini-2.5-pro" });
      const fits = await chat.append({ role: "user", content: "word ".repeat(399_000) }).then(() => "ok", error);
      const over = await chat.append({ role: "user", content: "é".repeat(1_000_001) }).then(() => "ok", error);
      return { fits, over, count: (await store("big_").loadChat("u", chat.id))!.chat.messageCount };
    }
    default:
      throw new Error(`unknown op ${String(body.op)}`);
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    try {
      return Response.json(await handle(env, (await request.json()) as Record<string, unknown>));
    } catch (e) {
      return Response.json({ error: error(e) }, { status: 500 });
    }
  },
};
