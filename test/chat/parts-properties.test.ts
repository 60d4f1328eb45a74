// Property (issue 12, rich content): random chats with random parts of every type (unicode
// text, images and files by URL, data: URL or base64, reasoning with and without a
// signature, redacted reasoning, tool units whose results carry images, a regenerated
// answer) built on either engine survive every in-process store (memory, SQLite in a file)
// across close and reopen on a new Loom of either engine: the same messages, parts
// included, and the same context in every output format (OpenAI, Anthropic, Responses, the
// AI SDK, LangChain, UIMessages). The export imports back to the same; the head's branch
// through UIMessages and back builds the same contexts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  Loom,
  memoryStore,
  type Chat,
  type ChatExport,
  type ContentPart,
  type MessageInput,
  type Store,
} from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { fromUIMessages, toModelContext, toUIMessages } from "../../src/ai-sdk.js";
import { toLangChainMessages } from "../../src/langchain.js";
import { tempFolder } from "../store/sqlite-helpers.js";
import { ENGINES } from "../helpers.js";

const file = tempFolder("parts-props");
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");

const text = fc.oneof(
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 14 }),
  fc.constantFrom(
    "naïve café",
    "日本語のテキスト",
    "👩🏽‍🚀 emoji",
    "עברית",
    "a\nb\r\n",
    " ",
    '{"json": true}',
    "\u0000nul",
  ),
);
const bytes = fc.uint8Array({ minLength: 1, maxLength: 24 }).map(b64);
const imageType = fc.constantFrom("image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp");
const fileType = fc.constantFrom("application/pdf", "text/plain", "application/json", "image/png");
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const textPart = text.map((t): ContentPart => ({ type: "text", text: t }));
const imagePart = fc
  .record({
    kind: fc.constantFrom("url", "data", "base64"),
    n: fc.nat(99),
    type: imageType,
    data: bytes,
    typed: fc.boolean(),
    detail: maybe(fc.constantFrom("low" as const, "high" as const, "auto" as const)),
    size: maybe(fc.tuple(fc.integer({ min: 1, max: 6000 }), fc.integer({ min: 1, max: 6000 }))),
  })
  .map(
    ({ kind, n, type, data, typed, detail, size }): ContentPart =>
      defined({
        type: "image" as const,
        image: kind === "url" ? `https://img.test/${n}.png` : kind === "data" ? `data:${type};base64,${data}` : data,
        mediaType: kind === "base64" || typed ? type : undefined,
        detail,
        width: size?.[0],
        height: size?.[1],
      }),
  );
const filePart = fc
  .record({
    kind: fc.constantFrom("url", "data", "base64"),
    n: fc.nat(99),
    type: fileType,
    data: bytes,
    filename: maybe(text),
  })
  .map(
    ({ kind, n, type, data, filename }): ContentPart =>
      defined({
        type: "file" as const,
        data: kind === "url" ? `https://files.test/${n}` : kind === "data" ? `data:${type};base64,${data}` : data,
        mediaType: type,
        filename,
      }),
  );
const reasoningPart = fc
  .record({ text: fc.oneof(text, fc.constant("")), signature: maybe(bytes) })
  .map(
    ({ text, signature }): ContentPart =>
      defined({ type: "reasoning" as const, text, signature: signature ?? (text === "" ? "c2ln" : undefined) }),
  );
const redactedPart = bytes.map((data): ContentPart => ({ type: "redacted-reasoning", data }));

const content = (parts: fc.Arbitrary<ContentPart>) => fc.oneof(text, fc.array(parts, { minLength: 1, maxLength: 4 }));
const userContent = content(fc.oneof(textPart, imagePart, filePart));
const assistantContent = content(fc.oneof(textPart, filePart, reasoningPart, redactedPart));
const toolContent = content(fc.oneof(textPart, imagePart));

/** A turn: a user message, an answer (possibly calling tools, whose results follow), maybe a regenerated answer. */
const turn = fc.record({
  system: maybe(text),
  user: userContent,
  calls: fc.array(fc.record({ args: text, result: toolContent }), { maxLength: 2 }),
  answer: assistantContent,
  regenerated: maybe(assistantContent),
});
const chatSpec = fc.array(turn, { minLength: 1, maxLength: 4 });

type Spec = typeof chatSpec extends fc.Arbitrary<infer T> ? T : never;

async function build(chat: Chat, spec: Spec): Promise<void> {
  let call = 0;
  for (const t of spec) {
    if (t.system !== undefined) await chat.append({ role: "system", content: t.system });
    await chat.append({ role: "user", content: t.user });
    if (t.calls.length > 0) {
      const calls = t.calls.map((c) => ({
        id: `call_${call++}`,
        type: "function" as const,
        function: { name: "look", arguments: JSON.stringify({ q: c.args }) },
      }));
      await chat.append({ role: "assistant", content: "", toolCalls: calls });
      for (const [i, c] of t.calls.entries())
        await chat.append({ role: "tool", toolCallId: calls[i]!.id, name: "look", content: c.result });
    }
    const answer = await chat.append({ role: "assistant", content: t.answer });
    if (t.regenerated !== undefined) {
      await chat.regenerate(answer.id);
      await chat.append({ role: "assistant", content: t.regenerated });
    }
  }
}

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const messagesOf = (chat: Chat) => Array.from({ length: chat.messageCount }, (_, i) => chat.get(i));

/** The context of the head in every output format, as JSON (URL objects as their text). */
async function contexts(chat: Chat): Promise<Record<string, unknown>> {
  const openai = await chat.buildContext();
  const anthropic = await chat.buildContext({ format: "anthropic" });
  const responses = await chat.buildContext({ format: "responses" });
  return json({
    openai: openai.messages,
    anthropic: [anthropic.system, anthropic.messages],
    responses: responses.messages,
    aiSdk: toModelContext(openai),
    langchain: toLangChainMessages(openai),
    tokens: openai.usage,
  }) as Record<string, unknown>;
}

describe("parts through stores, engines, formats, export and UIMessages", () => {
  for (const engine of ENGINES) {
    it(`a chat built on ${engine} reads back the same everywhere`, async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(chatSpec, async (spec) => {
          run++;
          const stores: [string, () => Store][] = [];
          const memory = memoryStore();
          stores.push(["memory", () => memory]);
          const path = file(`${engine}-${run}.db`);
          stores.push(["sqlite", () => sqliteStore(path)]);
          for (const [, store] of stores) {
            const loom = await Loom.open({ engine, store: store() });
            const chat = await loom.user("u").create({ model: "claude-sonnet-4-5", system: "Be brief." });
            await build(chat, spec);
            const messages = messagesOf(chat);
            const ctx = await contexts(chat);
            const ui = json(toUIMessages(chat));
            const exported = json(chat.export()) as ChatExport;
            await loom.close();
            for (const other of ENGINES) {
              const again = await Loom.open({ engine: other, store: store() });
              const reopened = await again.user("u").open(chat.id);
              expect(messagesOf(reopened)).toEqual(messages);
              expect(await contexts(reopened)).toEqual(ctx);
              expect(json(toUIMessages(reopened))).toEqual(ui);
              // The export imports back to the same messages and contexts.
              const imported = await again.user("v").import(exported);
              expect(messagesOf(imported)).toEqual(messages);
              expect(await contexts(imported)).toEqual(ctx);
              // The head's branch as UIMessages and back: the same contexts in every format.
              const copy = await again.user("w").create({ model: "claude-sonnet-4-5", system: "Be brief." });
              for (const input of fromUIMessages(ui as never) as MessageInput[]) await copy.append(input);
              expect(await contexts(copy)).toEqual(ctx);
              await again.close();
            }
          }
        }),
        { numRuns: Number(process.env.PARTS_RUNS ?? 12) },
      );
    }, 60_000);
  }
});
