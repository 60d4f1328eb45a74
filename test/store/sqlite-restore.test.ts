// Restore through the public API: a Loom on a SQLite file builds chats (append, regenerate,
// edit, checkout, tool calls), closes; a new Loom on the same file, on either engine, shows
// identical messages, ids, branches, head, paths, windows and contexts. On random trees and
// on every OpenAssistant tree of ../shared/data/oasst/en_100_tree.jsonl.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { Loom, type Chat } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import type { Durability } from "../../src/store-entry.js";
import { ENGINES } from "../helpers.js";
import { tempFolder } from "./sqlite-helpers.js";
import { rng } from "../recall/eval-set.js";

const file = tempFolder("sqlite-restore");
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const OASST = join(repoRoot, "../shared/data/oasst/en_100_tree.jsonl");
const oasstPresent = existsSync(OASST);
if (!oasstPresent)
  console.warn(
    `sqlite-restore.test.ts: the OpenAssistant part is skipped, ${OASST} is absent (the shared data folder is not mounted).`,
  );

/** Everything observable about a chat through the public API. */
async function dump(chat: Chat): Promise<unknown> {
  const all = Array.from({ length: chat.messageCount }, (_, i) => chat.get(i));
  const leaves = chat.leaves();
  return {
    id: chat.id,
    title: chat.title,
    model: chat.model,
    system: chat.system,
    updatedAt: chat.updatedAt,
    head: chat.head,
    messageCount: chat.messageCount,
    all,
    children: all.map((m) => chat.children(m.id)),
    siblings: all.map((m) => chat.siblings(m.id)),
    roots: chat.roots(),
    leaves,
    paths: leaves.map((leaf) => chat.path(leaf).map((m) => m.id)),
    path: chat.path(),
    windows: [chat.window(), chat.window({ maxMessages: 3 })],
    contexts:
      chat.head === null
        ? []
        : [await chat.buildContext(), await chat.buildContext({ maxMessages: 4, input: "and now?" })],
  };
}

/** Random operations on a chat: appends (with tool calls), regenerations, edits and checkouts. */
async function grow(chat: Chat, seed: number, steps: number): Promise<void> {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  for (let step = 0; step < steps; step++) {
    const head = chat.head === null ? undefined : chat.get(chat.head);
    const ids = Array.from({ length: chat.messageCount }, (_, i) => i);
    const x = r();
    if (head?.toolCalls) {
      await chat.append({ role: "tool", content: `result ${step}`, toolCallId: head.toolCalls[0]!.id });
    } else if (x < 0.12 && head?.role === "assistant") {
      await chat.regenerate(head.id);
    } else if (x < 0.22 && ids.some((id) => chat.get(id).role === "user")) {
      await chat.edit(pick(ids.filter((id) => chat.get(id).role === "user")), `edited ${step} ${"é".repeat(step % 3)}`);
    } else if (x < 0.32 && ids.length > 0) {
      await chat.checkout(pick(ids));
    } else if (x < 0.38 && head?.role === "user") {
      await chat.append({
        role: "assistant",
        content: "",
        toolCalls: [{ id: `call${step}`, type: "function", function: { name: "lookup", arguments: `{"q":${step}}` } }],
      });
    } else {
      const role = head?.role === "user" ? "assistant" : "user";
      await chat.append({
        role,
        content: `${role} ${step} ${"words ".repeat(Math.floor(r() * 20))}`,
        priority: pick(["low", "normal", "normal", "high"] as const),
      });
    }
  }
}

describe.each(ENGINES)("restore from SQLite, written on the %s engine", (engine) => {
  it.each(["full", "batched"] as Durability[])(
    "random trees (%s durability): a new Loom, on either engine, sees the same chats",
    async (durability) => {
      const path = file(`random-${engine}-${durability}.db`);
      const loom = await Loom.open({ engine, counter: "heuristic", store: sqliteStore(path, { durability }) });
      const chats = loom.user("alice");
      const seeds = [1, 2, 3, 5, 8, 13, 21, 34];
      const written = new Map<string, unknown>();
      let branched = 0;
      let toolUnits = 0;
      for (const seed of seeds) {
        const chat = await chats.create({
          title: `seed ${seed}`,
          system: seed % 2 ? "Be brief." : undefined,
          model: seed % 3 ? "gpt-4o" : "llama3.2",
        });
        await grow(chat, seed, 60);
        written.set(chat.id, await dump(chat));
        if (chat.leaves().length > 1) branched++;
        toolUnits += chat.path(chat.leaves()[0]).filter((m) => m.role === "tool").length;
      }
      // The trees are what the test claims: branched, with tool calls answered.
      expect(branched).toBeGreaterThan(seeds.length / 2);
      expect(toolUnits).toBeGreaterThan(0);
      const list = await chats.list();
      await loom.close();
      for (const reader of ENGINES) {
        const again = await Loom.open({ engine: reader, counter: "heuristic", store: sqliteStore(path) });
        expect(await again.user("alice").list()).toEqual(list);
        for (const [id, before] of written) expect(await dump(await again.user("alice").open(id))).toEqual(before);
        await again.close();
      }
    },
  );

  (oasstPresent ? it : it.skip)("every OpenAssistant tree: paths, branches and heads come back", async () => {
    interface OasstMessage {
      text: string;
      role: "prompter" | "assistant";
      replies?: OasstMessage[];
    }
    const trees = readFileSync(OASST, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { prompt: OasstMessage });
    const path = file(`oasst-${engine}.db`);
    const loom = await Loom.open({ engine, store: sqliteStore(path, { durability: "batched" }) });
    const chats = loom.user("oasst");
    const written = new Map<string, unknown>();
    let messages = 0;
    for (const [i, tree] of trees.entries()) {
      const chat = await chats.create({ title: `tree ${i}` });
      const visit = async (m: OasstMessage, parent: number | null): Promise<void> => {
        if (parent !== null) await chat.checkout(parent);
        const added = await chat.append({ role: m.role === "prompter" ? "user" : "assistant", content: m.text });
        messages++;
        for (const reply of m.replies ?? []) await visit(reply, added.id);
      };
      await visit(tree.prompt, null);
      if (i % 3 === 0) await chat.checkout(chat.leaves()[0]!); // heads in several places
      written.set(chat.id, await dump(chat));
    }
    expect(messages).toBe(1167);
    await loom.close();
    const again = await Loom.open({ engine, store: sqliteStore(path) });
    for (const [id, before] of written) expect(await dump(await again.user("oasst").open(id))).toEqual(before);
    await again.close();
  });
});

describe("docs/stores.md's SQLite example", () => {
  it("runs as written (on a temporary file) and restores the chat", async () => {
    const page = readFileSync(join(repoRoot, "docs/stores.md"), "utf8");
    const section = page.slice(page.indexOf("## SQLite"));
    const code = section.slice(section.indexOf("```ts\n") + 6, section.indexOf("```\n", section.indexOf("```ts\n")));
    const db = file("readme.db");
    const example = file("example.ts");
    writeFileSync(
      example,
      code
        .replace(`from "ctxloom"`, `from ${JSON.stringify(pathToFileURL(join(repoRoot, "src/index.ts")).href)}`)
        .replace(`from "ctxloom/sqlite"`, `from ${JSON.stringify(pathToFileURL(join(repoRoot, "src/sqlite.ts")).href)}`)
        .replaceAll(`"./ctxloom.db"`, JSON.stringify(db))
        .replace(
          /\(await again\.user\("alice"\)\.open\(chat\.id\)\)\.path\(\);.*/,
          'export const restored = (await again.user("alice").open(chat.id)).path(); await again.close();',
        ),
    );
    const { restored } = (await import(pathToFileURL(example).href)) as {
      restored: { role: string; content: string }[];
    };
    expect(restored.map((m) => [m.role, m.content])).toEqual([["user", "Three days in Lisbon?"]]);
  });
});
