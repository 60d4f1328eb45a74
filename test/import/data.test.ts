// Every file of ../shared/data imported, and checked against an independent reading of the raw
// file: message counts, leaves (one per branch), every root-to-leaf path and the head's path.
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseExport, parseExportStream, type ParsedImport } from "../../src/import/index.js";
import { actualView, expectedView, type RawTreeNode } from "./tree-check.js";

const dataDir = join(dirname(fileURLToPath(import.meta.url)), "../../../shared/data");
const present = existsSync(dataDir);
if (!present)
  console.warn(`import/data.test.ts: skipped, ${dataDir} is absent (the shared data folder is not mounted).`);
const file = (name: string) => join(dataDir, name);
const read = (name: string) => readFileSync(file(name), "utf8");

type Json = Record<string, any>;

/** Checks each imported chat against its raw reading, in order. */
function checkAll(parsed: ParsedImport, raw: { nodes: RawTreeNode[]; head: string | null }[]): void {
  expect(parsed.chats.length).toBe(raw.length);
  raw.forEach((r, i) => {
    const expected = expectedView(r.nodes, r.head);
    const actual = actualView(parsed.chats[i]!);
    expect(actual).toEqual(expected);
    expect(parsed.reports[i]!.messages).toBe(expected.messages);
    expect(parsed.reports[i]!.leaves).toBe(expected.leaves);
    // The report's id map leads back to the same messages.
    for (const n of r.nodes.filter((x) => x.keep))
      expect(parsed.chats[i]!.messages[parsed.reports[i]!.ids[n.key]!]!.content).toBe(n.text);
  });
}

describe.skipIf(!present)("the shared data, imported", () => {
  it("ChatGPT conversations.json: the empty root and the hidden system node left out, head on current_node", () => {
    const text = read("chatgpt/chatgpt-tree.json");
    const parsed = parseExport(text, { now: 0 });
    expect(parsed.format).toBe("chatgpt");
    const raw = (JSON.parse(text) as Json[]).map((conv) => ({
      head: conv.current_node as string,
      nodes: Object.values(conv.mapping as Json).map(
        (n: Json): RawTreeNode => ({
          key: n.id,
          parent: n.parent ?? null,
          role: n.message?.author.role ?? "none",
          text: (n.message?.content.parts ?? []).join("\n"),
          keep: !!n.message && !n.message.metadata?.is_visually_hidden_from_conversation,
        }),
      ),
    }));
    checkAll(parsed, raw);
    expect(parsed.chats[0]!.messages.length).toBe(11);
    expect(parsed.reports[0]!.leaves).toBe(3);
    expect(parsed.reports[0]!.skipped).toEqual({
      "no message": ["aaa1f70c-100e-46f0-999e-10c8565f047f"],
      hidden: ["d38605d2-7b2c-43de-b044-22ce472c749b"],
    });
    const exp = parsed.chats[0]!;
    expect(exp.head).toBe(parsed.reports[0]!.ids["f63b8e17-aa5c-4ca6-a1bf-d4d285e269b8"]);
    expect(exp.chat).toMatchObject({
      title: "Assist user with summary",
      createdAt: 1714585031149,
      updatedAt: 1714585060879,
      model: "gpt-4o",
    });
    // Creation order: the regenerated answer (created last) has the last id.
    expect(exp.head).toBe(10);
  });

  it("LibreChat nested export: head on the last message written, system from promptPrefix", () => {
    const text = read("librechat/librechat-tree.json");
    const parsed = parseExport(text, { now: 0 });
    expect(parsed.format).toBe("librechat");
    const conv = JSON.parse(text) as Json;
    const nodes: RawTreeNode[] = [];
    const walk = (list: Json[]) =>
      list.forEach((m) => {
        nodes.push({
          key: m.messageId,
          parent: m.parentMessageId === "00000000-0000-0000-0000-000000000000" ? null : m.parentMessageId,
          role: m.isCreatedByUser ? "user" : "assistant",
          text: m.text,
          keep: true,
        });
        walk(m.children ?? []);
      });
    walk(conv.messages);
    checkAll(parsed, [{ nodes, head: nodes.at(-1)!.key }]);
    expect(parsed.chats[0]!.chat).toMatchObject({
      system: "You are an expert software engineer.",
      model: "gpt-4-turbo",
    });
    expect(nodes.length).toBe(9);
  });

  it("OpenAssistant trees (JSON Lines): head follows the rank-0 reply, else the last", async () => {
    const text = read("oasst/en_100_tree.jsonl");
    const parsed = parseExport(text, { now: 0 });
    expect(parsed.format).toBe("oasst");
    const raw = text
      .trim()
      .split("\n")
      .map((l) => {
        const tree = JSON.parse(l) as Json;
        const nodes: RawTreeNode[] = [];
        let head = "";
        const walk = (m: Json, parent: string | null, onHead: boolean) => {
          nodes.push({
            key: m.message_id,
            parent,
            role: m.role === "prompter" ? "user" : "assistant",
            text: m.text,
            keep: true,
          });
          if (onHead) head = m.message_id;
          const replies: Json[] = m.replies ?? [];
          const ranked = replies.filter((r) => typeof r.rank === "number");
          const best = ranked.length ? ranked.reduce((a, b) => (b.rank < a.rank ? b : a)) : replies.at(-1);
          for (const r of replies) walk(r, m.message_id, onHead && r === best);
        };
        walk(tree.prompt, null, true);
        return { nodes, head };
      });
    checkAll(parsed, raw);
    expect(parsed.chats.reduce((s, c) => s + c.messages.length, 0)).toBe(1167);
    // The same through the stream, in small byte chunks, with progress.
    const seen: number[] = [];
    const streamed = await parseExportStream(
      createReadStream(file("oasst/en_100_tree.jsonl"), { highWaterMark: 4096 }),
      {
        now: 0,
        totalBytes: statSync(file("oasst/en_100_tree.jsonl")).size,
        onProgress: (p) => seen.push(p.bytesRead),
      },
    );
    expect(streamed).toEqual(parsed);
    expect(seen.length).toBeGreaterThan(100);
    expect(seen.at(-1)).toBe(statSync(file("oasst/en_100_tree.jsonl")).size);
  });

  it("OpenAssistant flat messages: one chat per root, head along the last reply", () => {
    const text = read("oasst/realistic_seed_data.json");
    const parsed = parseExport(text, { now: 0 });
    expect(parsed.format).toBe("oasst");
    const list = JSON.parse(text) as Json[];
    const rootOf = (m: Json): string => {
      for (;;) {
        const up = list.find((x) => x.user_message_id === m.parent_message_id);
        if (!up) return m.user_message_id;
        m = up;
      }
    };
    const roots = [...new Set(list.map(rootOf))];
    const raw = roots.map((root) => {
      const members = list.filter((m) => rootOf(m) === root);
      let head = root;
      for (;;) {
        const kids = members.filter((m) => m.parent_message_id === head);
        if (!kids.length) break;
        head = kids.at(-1)!.user_message_id;
      }
      return {
        head,
        nodes: members.map(
          (m): RawTreeNode => ({
            key: m.user_message_id,
            parent: m.parent_message_id,
            role: m.role === "prompter" ? "user" : "assistant",
            text: m.text,
            keep: true,
          }),
        ),
      };
    });
    checkAll(parsed, raw);
    expect(parsed.chats.length).toBe(74);
    expect(parsed.chats.reduce((s, c) => s + c.messages.length, 0)).toBe(444);
  });

  it("ShareGPT: one linear chat, head on the last turn", () => {
    const text = read("sharegpt/axolotl_sharegpt_conversation.json");
    const parsed = parseExport(text, { now: 0 });
    expect(parsed.format).toBe("sharegpt");
    const turns = (JSON.parse(text) as Json).conversations as Json[];
    const nodes = turns.map(
      (t, i): RawTreeNode => ({
        key: String(i),
        parent: i ? String(i - 1) : null,
        role: t.from === "human" ? "user" : "assistant",
        text: t.value,
        keep: true,
      }),
    );
    checkAll(parsed, [{ nodes, head: String(turns.length - 1) }]);
    expect(parsed.reports[0]!.leaves).toBe(1);
    expect(parsed.chats[0]!.messages.length).toBe(12);
  });
});
