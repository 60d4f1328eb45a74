// Every chat of the shared data goes into a real Loom (engine and memory store) and comes
// back the same: ids, parents, roles, contents, tool links and the head.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { exportChat, importChat } from "../../src/cli/chat-io.js";
import { parseExport } from "../../src/import/index.js";
import { Loom } from "../../src/index.js";
import { ENGINES } from "../helpers.js";
import { chatgptSample } from "../import/samples.js";

const dataDir = join(dirname(fileURLToPath(import.meta.url)), "../../../shared/data");
const present = existsSync(dataDir);
if (!present) console.warn(`cli/chat-io.test.ts: the shared data part is skipped, ${dataDir} is absent.`);
const FILES = [
  "chatgpt/chatgpt-tree.json",
  "librechat/librechat-tree.json",
  "oasst/en_100_tree.jsonl",
  "oasst/realistic_seed_data.json",
  "sharegpt/axolotl_sharegpt_conversation.json",
];

const shape = (m: {
  id: number;
  parentId: number | null;
  role: string;
  content: string;
  name?: string;
  toolCalls?: unknown;
  toolCallId?: string;
}) => ({
  id: m.id,
  parentId: m.parentId,
  role: m.role,
  content: m.content,
  name: m.name,
  toolCalls: m.toolCalls,
  toolCallId: m.toolCallId,
});

describe.each(ENGINES)("imported chats in a Loom (%s engine)", (engine) => {
  async function roundTrip(text: string): Promise<number> {
    const parsed = parseExport(text, { now: 0 });
    const loom = await Loom.open({ engine, counter: "heuristic" });
    const chats = loom.user("u");
    for (const exp of parsed.chats) {
      const { id } = await importChat(chats, exp);
      const back = await exportChat(await chats.open(id));
      expect(back.head).toBe(exp.head);
      expect(back.messages.map(shape)).toEqual(exp.messages.map(shape));
      expect(back.chat).toMatchObject({ title: exp.chat.title, model: exp.chat.model, system: exp.chat.system });
    }
    await loom.close();
    return parsed.chats.length;
  }

  it("a ChatGPT chat with tool calls, results and a tool output kept as a user message", async () => {
    expect(await roundTrip(JSON.stringify([chatgptSample()]))).toBe(1);
  });

  it.skipIf(!present)("every file of the shared data", async () => {
    let chats = 0;
    for (const f of FILES) chats += await roundTrip(readFileSync(join(dataDir, f), "utf8"));
    expect(chats).toBe(1 + 1 + 100 + 74 + 1);
  });
});
