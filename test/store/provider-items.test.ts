// What providers send back as it came (issue 31, items 3 and 6): OpenAI's reasoning and
// compaction items and Anthropic's thinking and compaction blocks come back from every store
// and from an export byte for byte, so a chat reopened by another process sends them back as
// the provider made them.
import { describe, expect, it } from "vitest";
import type { BetaCompactionBlock, BetaMessageParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type {
  ResponseCompactionItem,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import { Loom, memoryStore, type Store } from "../../src/index.js";
import { fromAnthropicMessages } from "../../src/anthropic.js";
import { fromResponseItems } from "../../src/openai.js";
import { postgresStore } from "../../src/postgres.js";
import { sqliteStore } from "../../src/sqlite.js";
import { ENGINES } from "../helpers.js";
import { clusterForFile } from "./pg-file.js";
import { tempFolder } from "./sqlite-helpers.js";

const file = tempFolder("provider-items");
const postgres = clusterForFile();

// Keys in the provider's order, texts a JSON codec could change: escapes, astral characters, "\u0000".
const reasoning: ResponseReasoningItem = {
  id: "rs_\u00e9",
  type: "reasoning",
  summary: [{ type: "summary_text", text: 'Plan: "quote" \\ 😀 \u2028 \u0000' }],
  encrypted_content: "gAAAA+/=",
  status: "completed",
};
const openAICompaction: ResponseCompactionItem = {
  type: "compaction",
  id: "cmp_1",
  encrypted_content: "gAAAA-state",
  created_by: "server",
};
const block: BetaCompactionBlock = {
  type: "compaction",
  content: "Summary \u00e9 😀",
  encrypted_content: null,
  signature: "sig",
  tool_changes: [],
};

const STORES: [string, boolean, () => () => Store][] = [
  [
    "memory",
    false,
    () => {
      const store = memoryStore();
      return () => store;
    },
  ],
  [
    "sqlite",
    false,
    () => {
      const path = file("items.db");
      return () => sqliteStore(path);
    },
  ],
  ["postgres", postgres.skip, () => () => postgresStore(postgres.url(), { tablePrefix: "items_" })],
];

describe("provider items round-trip exactly", () => {
  let runs = 0;
  for (const [name, skip, storeFor] of STORES) {
    it.skipIf(skip)(`${name}: reopened, and exported and imported, a chat sends them back as they came`, async () => {
      const engine = ENGINES[runs++ % 2]!;
      const store = storeFor();
      const loom = await Loom.open({ engine, store: store() });
      const responses = await loom.user("u").create({ title: "responses" });
      const items: (ResponseInputItem | ResponseOutputItem)[] = [
        { role: "user", content: "Go." },
        openAICompaction,
        reasoning,
        { type: "function_call", call_id: "c1", name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "done" },
      ];
      for (const input of fromResponseItems(items)) await responses.append(input);
      const anthropic = await loom.user("u").create({ title: "anthropic" });
      const run: BetaMessageParam[] = [
        { role: "user", content: "Go." },
        {
          role: "assistant",
          content: [
            block,
            { type: "thinking", thinking: "Call f.", signature: "th-sig" },
            { type: "tool_use", id: "c1", name: "f", input: {} },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "done" }] },
      ];
      for (const input of fromAnthropicMessages(run)) await anthropic.append(input);
      const sentResponses = JSON.stringify((await responses.buildContext({ format: "responses" })).messages);
      const sentAnthropic = JSON.stringify((await anthropic.buildContext({ format: "anthropic" })).messages);
      expect(sentResponses).toBe(
        JSON.stringify([
          openAICompaction,
          reasoning,
          items[3],
          { type: "function_call_output", call_id: "c1", output: "done" },
        ]),
      );
      expect(sentAnthropic).toBe(
        JSON.stringify([
          run[1],
          { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "done" }] },
        ]),
      );
      const exports = [responses.export(), anthropic.export()];
      await loom.close();

      const again = await Loom.open({ engine, store: store() });
      const chats = again.user("u");
      expect(
        JSON.stringify((await (await chats.open(responses.id)).buildContext({ format: "responses" })).messages),
      ).toBe(sentResponses);
      expect(
        JSON.stringify((await (await chats.open(anthropic.id)).buildContext({ format: "anthropic" })).messages),
      ).toBe(sentAnthropic);
      const [r, a] = [
        await again.user("v").import(JSON.stringify(exports[0])),
        await again.user("v").import(JSON.stringify(exports[1])),
      ];
      expect(JSON.stringify((await r.buildContext({ format: "responses" })).messages)).toBe(sentResponses);
      expect(JSON.stringify((await a.buildContext({ format: "anthropic" })).messages)).toBe(sentAnthropic);
      await again.close();
    });
  }
});
