// Real conversation trees: the 100 English OpenAssistant trees of ../shared/data/oasst, loaded
// into chats with checkout + append; every root-to-leaf path must come back exactly.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Loom, memoryStore, type Chat } from "../../src/index.js";
import { ENGINES, observe } from "../helpers.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const file = join(repoRoot, "../shared/data/oasst/en_100_tree.jsonl");
const present = existsSync(file);
if (!present) console.warn(`oasst.test.ts: skipped, ${file} is absent (the shared data folder is not mounted).`);

interface OasstMessage {
  message_id: string;
  text: string;
  role: "prompter" | "assistant";
  replies?: OasstMessage[];
}
interface OasstTree {
  message_tree_id: string;
  prompt: OasstMessage;
}

const roleOf = (m: OasstMessage) => (m.role === "prompter" ? ("user" as const) : ("assistant" as const));

/** Root-to-leaf paths of a tree, in DFS order. */
function leafPaths(root: OasstMessage): OasstMessage[][] {
  const out: OasstMessage[][] = [];
  const dfs = (m: OasstMessage, path: OasstMessage[]) => {
    const p = [...path, m];
    if (!m.replies?.length) out.push(p);
    for (const r of m.replies ?? []) dfs(r, p);
  };
  dfs(root, []);
  return out;
}

const count = (m: OasstMessage): number => 1 + (m.replies ?? []).reduce((s, r) => s + count(r), 0);

/**
 * Loads one tree into a chat: DFS; every message is appended after checkout(parent). Each OASST
 * tree has one root (its prompt), appended to the empty chat. Were there more roots, the only
 * public way to add one is edit() of the first root (a user message); loadRoots does that.
 */
async function load(chat: Chat, roots: OasstMessage[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const visit = async (m: OasstMessage, parent: number | null): Promise<void> => {
    if (parent !== null) await chat.checkout(parent);
    const added = await chat.append({ role: roleOf(m), content: m.text });
    expect(added.parentId).toBe(parent);
    ids.set(m.message_id, added.id);
    for (const r of m.replies ?? []) await visit(r, added.id);
  };
  for (const [i, root] of roots.entries()) {
    if (i === 0) {
      await visit(root, null);
      continue;
    }
    // an extra root: edit() of the first root makes a new root sibling (user messages only)
    const first = ids.get(roots[0]!.message_id)!;
    const added = await chat.edit(first, root.text);
    expect(added.parentId).toBeNull();
    ids.set(root.message_id, added.id);
    for (const r of root.replies ?? []) await visit(r, added.id);
  }
  return ids;
}

(present ? describe : describe.skip)("OpenAssistant en_100 trees", () => {
  const trees: OasstTree[] = present
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as OasstTree)
    : [];

  it("the data set is the expected one: 100 trees, 1,167 messages", () => {
    expect(trees).toHaveLength(100);
    expect(trees.reduce((s, t) => s + count(t.prompt), 0)).toBe(1167);
  });

  for (const engine of ENGINES) {
    describe(engine, () => {
      let loom: Loom;
      const loaded: { tree: OasstTree; chat: Chat; ids: Map<string, number> }[] = [];

      beforeAll(async () => {
        loom = await Loom.open({ engine });
        const chats = loom.user("oasst");
        for (const tree of trees) {
          const chat = await chats.create({ title: tree.message_tree_id });
          loaded.push({ tree, chat, ids: await load(chat, [tree.prompt]) });
        }
      });
      afterAll(async () => {
        await loom.close();
      });

      it("1,167 messages in 100 chats; leaves per tree as in the data set", async () => {
        expect(loaded.reduce((s, l) => s + l.chat.messageCount, 0)).toBe(1167);
        let leaves = 0;
        for (const { tree, chat } of loaded) {
          const expected = leafPaths(tree.prompt).length;
          expect(chat.leaves()).toHaveLength(expected);
          expect(chat.roots()).toHaveLength(1);
          leaves += expected;
        }
        expect(leaves).toBe(626);
        const list = await loom.user("oasst").list();
        expect(list).toHaveLength(100);
        expect(list.reduce((s, c) => s + c.messageCount, 0)).toBe(1167);
      });

      it("every root-to-leaf path is reproduced exactly (texts and roles)", () => {
        let paths = 0;
        for (const { tree, chat, ids } of loaded) {
          const leafSet = new Set(chat.leaves());
          for (const original of leafPaths(tree.prompt)) {
            const leaf = ids.get(original.at(-1)!.message_id)!;
            expect(leafSet.has(leaf)).toBe(true);
            const restored = chat.path(leaf);
            expect(restored.map((m) => m.content)).toEqual(original.map((m) => m.text));
            expect(restored.map((m) => m.role)).toEqual(original.map(roleOf));
            expect(restored.map((m) => m.id)).toEqual(original.map((m) => ids.get(m.message_id)));
            paths++;
          }
        }
        expect(paths).toBe(626);
      });

      it("children keep the replies' order; siblings are the other replies", () => {
        for (const { tree, chat, ids } of loaded) {
          const walk = (m: OasstMessage) => {
            const id = ids.get(m.message_id)!;
            const replies = (m.replies ?? []).map((r) => ids.get(r.message_id)!);
            expect(chat.children(id)).toEqual(replies);
            for (const r of replies) expect(chat.siblings(r)).toEqual(replies.filter((x) => x !== r));
            for (const r of m.replies ?? []) walk(r);
          };
          walk(tree.prompt);
        }
      });

      it("checkout of each leaf: window({ maxMessages: 3 }) is the last 3 of its path", async () => {
        for (const { tree, chat, ids } of loaded) {
          for (const original of leafPaths(tree.prompt)) {
            const leaf = ids.get(original.at(-1)!.message_id)!;
            await chat.checkout(leaf);
            expect(chat.head).toBe(leaf);
            const win = chat.window({ maxMessages: 3 });
            expect(win.map((m) => m.content)).toEqual(original.slice(-3).map((m) => m.text));
            expect(win).toEqual(chat.path().slice(-3));
          }
        }
      });
    });
  }

  it("both engines load every tree into identical chats", async () => {
    const looms = await Promise.all(ENGINES.map((engine) => Loom.open({ engine })));
    try {
      for (const tree of trees.slice(0, 25)) {
        const [a, b] = await Promise.all(
          looms.map(async (l) => {
            const chat = await l.user("x").create();
            await load(chat, [tree.prompt]);
            return chat;
          }),
        );
        const shape = (c: Chat) =>
          Array.from({ length: c.messageCount }, (_, i) => ({ ...c.get(i), createdAt: 0, children: c.children(i) }));
        expect(shape(a!)).toEqual(shape(b!));
      }
    } finally {
      await Promise.all(looms.map((l) => l.close()));
    }
  });

  it("every tree reopens from the store on a new Loom, on both engines, exactly as it was", async () => {
    const store = memoryStore();
    const writer = await Loom.open({ engine: "wasm", store });
    const readers = await Promise.all(ENGINES.map((engine) => Loom.open({ engine, store })));
    try {
      for (const tree of trees) {
        const chat = await writer.user("x").create({ title: tree.message_tree_id });
        await load(chat, [tree.prompt]);
        const expected = await observe(chat);
        for (const reader of readers) expect(await observe(await reader.user("x").open(chat.id))).toEqual(expected);
      }
    } finally {
      await Promise.all([writer, ...readers].map((l) => l.close()));
    }
  });
});
