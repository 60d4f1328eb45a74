// Rich content (issue 12, point 4) through a chat, on both engines: content lists validated
// part by part (a refusal changes nothing), parts kept by the memory store, SQLite and the
// portable export, counted once at append by the chat model's image rule, and sent by every
// output format.
import { describe, expect, it } from "vitest";
import { Loom, memoryStore, type ChatExport, type ContentPart, type MessageInput } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { tempFolder } from "../store/sqlite-helpers.js";
import { expectRejectCode, forEachEngine, setup, snapshot } from "../helpers.js";

/** A 1x1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
/** "%PDF-1.4 ..." (the bytes do not matter: only their size is counted). */
const PDF = "JVBERi0xLjQKJcfsj6IKMSAwIG9iago8PD4+CmVuZG9iagp0cmFpbGVyCjw8Pj4KJSVFT0YK";
const file = tempFolder("parts");

const rich: ContentPart[] = [
  { type: "text", text: "What is in this picture?" },
  { type: "image", image: "https://example.com/cat.png", detail: "low" },
  { type: "image", image: PNG, mediaType: "image/png", width: 1024, height: 1024 },
  { type: "file", data: `data:application/pdf;base64,${PDF}`, mediaType: "application/pdf", filename: "notes.pdf" },
  { type: "text", text: "And the notes?" },
];

const BAD: [string, MessageInput][] = [
  ["an empty list", { role: "user", content: [] }],
  ["a part that is not an object", { role: "user", content: ["hi" as never] }],
  ["an unknown part type", { role: "user", content: [{ type: "audio", data: "aGk=" } as never] }],
  [
    "an unknown key",
    { role: "user", content: [{ type: "image", image: PNG, mediaType: "image/png", imageUrl: "x" } as never] },
  ],
  [
    "an empty text part",
    {
      role: "user",
      content: [
        { type: "text", text: "" },
        { type: "image", image: "https://x.org/a.png" },
      ],
    },
  ],
  ["a lone surrogate in a text part", { role: "user", content: [{ type: "text", text: "a\ud800" }] }],
  ["an image that is no URL or base64", { role: "user", content: [{ type: "image", image: "ftp://x.org/a.png" }] }],
  ["base64 bytes without a media type", { role: "user", content: [{ type: "image", image: PNG }] }],
  [
    "an image with a media type that is not an image",
    { role: "user", content: [{ type: "image", image: PNG, mediaType: "application/pdf" }] },
  ],
  [
    "a media type that differs from the data: URL's",
    { role: "user", content: [{ type: "image", image: `data:image/png;base64,${PNG}`, mediaType: "image/jpeg" }] },
  ],
  [
    "a data: URL that is not base64",
    { role: "user", content: [{ type: "file", data: "data:text/plain,hello", mediaType: "text/plain" }] },
  ],
  ["a width without a height", { role: "user", content: [{ type: "image", image: "https://x.org/a.png", width: 10 }] }],
  [
    "a width of zero",
    { role: "user", content: [{ type: "image", image: "https://x.org/a.png", width: 0, height: 10 }] },
  ],
  [
    "a fractional height",
    { role: "user", content: [{ type: "image", image: "https://x.org/a.png", width: 10, height: 1.5 }] },
  ],
  [
    "an unknown detail",
    { role: "user", content: [{ type: "image", image: "https://x.org/a.png", detail: "medium" as never }] },
  ],
  ["a file without a media type", { role: "user", content: [{ type: "file", data: PDF } as never] }],
  ["a file with a malformed media type", { role: "user", content: [{ type: "file", data: PDF, mediaType: "pdf" }] }],
  [
    "a file whose data is not a string",
    { role: "user", content: [{ type: "file", data: 3, mediaType: "application/pdf" } as never] },
  ],
  [
    "an empty filename",
    { role: "user", content: [{ type: "file", data: PDF, mediaType: "application/pdf", filename: "" }] },
  ],
  ["reasoning in a user message", { role: "user", content: [{ type: "reasoning", text: "hmm" }] }],
  [
    "an image in an assistant message",
    { role: "assistant", content: [{ type: "image", image: "https://x.org/a.png" }] },
  ],
  ["an image in a system message", { role: "system", content: [{ type: "image", image: "https://x.org/a.png" }] }],
  ["reasoning with no text and no signature", { role: "assistant", content: [{ type: "reasoning", text: "" }] }],
  ["an empty signature", { role: "assistant", content: [{ type: "reasoning", text: "hmm", signature: "" }] }],
  ["empty redacted reasoning", { role: "assistant", content: [{ type: "redacted-reasoning", data: "" }] }],
  [
    "an OpenAI reasoning item that is no JSON",
    { role: "assistant", content: [{ type: "reasoning", text: "", item: "{id: rs_1}" }] },
  ],
  [
    "an OpenAI reasoning item without an id",
    { role: "assistant", content: [{ type: "reasoning", text: "", item: '{"type":"reasoning","summary":[]}' }] },
  ],
  [
    "an OpenAI reasoning item of another type",
    { role: "assistant", content: [{ type: "reasoning", text: "", item: '{"type":"message","id":"m","summary":[]}' }] },
  ],
  [
    "an OpenAI reasoning item given as an object",
    {
      role: "assistant",
      content: [{ type: "reasoning", text: "", item: { type: "reasoning", id: "rs", summary: [] } as never }],
    },
  ],
  [
    "reasoning with a signature and an item",
    {
      role: "assistant",
      content: [{ type: "reasoning", text: "x", signature: "s", item: '{"type":"reasoning","id":"rs","summary":[]}' }],
    },
  ],
  [
    "a compaction in a user message",
    {
      role: "user",
      content: [{ type: "compaction", provider: "openai", data: '{"type":"compaction","encrypted_content":"e"}' }],
    },
  ],
  [
    "a compaction of an unknown provider",
    {
      role: "assistant",
      content: [
        { type: "compaction", provider: "google" as never, data: '{"type":"compaction","encrypted_content":"e"}' },
      ],
    },
  ],
  [
    "an OpenAI compaction without encrypted content",
    { role: "assistant", content: [{ type: "compaction", provider: "openai", data: '{"type":"compaction"}' }] },
  ],
  [
    "an Anthropic compaction with an empty summary",
    {
      role: "assistant",
      content: [{ type: "compaction", provider: "anthropic", data: '{"type":"compaction","content":""}' }],
    },
  ],
  [
    "an Anthropic compaction with a cache_control",
    {
      role: "assistant",
      content: [
        {
          type: "compaction",
          provider: "anthropic",
          data: '{"type":"compaction","content":"s","cache_control":{"type":"ephemeral"}}',
        },
      ],
    },
  ],
  [
    "a compaction with another key",
    {
      role: "assistant",
      content: [
        {
          type: "compaction",
          provider: "openai",
          data: '{"type":"compaction","encrypted_content":"e"}',
          item: "x",
        } as never,
      ],
    },
  ],
];

forEachEngine((engine) => {
  describe("content lists", () => {
    it.each(BAD)("refuses %s with INVALID_CONTENT and changes nothing", async (_what, input) => {
      const { chat, chats } = await setup(engine);
      await chat.append({ role: "user", content: "hello" });
      const before = await snapshot(chat, chats);
      await expectRejectCode(() => chat.append(input), "INVALID_CONTENT");
      expect(await snapshot(chat, chats)).toEqual(before);
    });

    it("keeps the parts and the joined text; a text-only list is stored as text", async () => {
      const { chat } = await setup(engine);
      const m = await chat.append({ role: "user", content: rich });
      expect(m.content).toBe("What is in this picture?\nAnd the notes?");
      expect(m.parts).toEqual(rich);
      m.parts![0] = { type: "text", text: "changed" }; // a copy: the chat is not changed
      expect(chat.get(m.id).parts).toEqual(rich);
      const plain = await chat.append({
        role: "assistant",
        content: [
          { type: "text", text: "A cat." },
          { type: "text", text: "Notes." },
        ],
      });
      expect(plain).not.toHaveProperty("parts");
      expect(plain.content).toBe("A cat.\nNotes.");
      // No text at all is fine when something else is there.
      const image = await chat.append({
        role: "user",
        content: [{ type: "image", image: "https://example.com/dog.png" }],
      });
      expect(image.content).toBe("");
    });

    it("edit takes what append takes: parts make a new sibling with them, the original stays as a branch", async () => {
      const { chat } = await setup(engine);
      const q = await chat.append({ role: "user", content: "What is in this picture?", priority: "high", name: "ann" });
      const a = await chat.append({ role: "assistant", content: "Which picture?" });
      const e = await chat.edit(q.id, rich);
      expect(e).toMatchObject({
        parentId: q.parentId,
        role: "user",
        priority: "high",
        name: "ann",
        content: "What is in this picture?\nAnd the notes?",
      });
      expect(e.parts).toEqual(rich);
      expect(e.tokens).toBeGreaterThan(q.tokens); // the images and the file are counted
      expect(chat.head).toBe(e.id);
      expect(chat.get(q.id)).toEqual(q); // the original and its answer stay, on their branch
      expect(chat.children(q.id)).toEqual([a.id]);
      expect([...chat.leaves()].sort((x, y) => x - y)).toEqual([a.id, e.id]);
      // A text-only list is stored as text, as an append stores it; parts go back to a string.
      const plain = await chat.edit(e.id, [
        { type: "text", text: "Just" },
        { type: "text", text: "words" },
      ]);
      expect(plain).not.toHaveProperty("parts");
      expect(plain.content).toBe("Just\nwords");
      const text = await chat.edit(e.id, "Only text");
      expect(text).not.toHaveProperty("parts");
      expect((await chat.buildContext({ format: "anthropic" })).messages.at(-1)).toEqual({
        role: "user",
        content: "Only text",
      });
      await chat.checkout(e.id);
      expect((await chat.buildContext({ format: "anthropic" })).messages.at(-1)).toMatchObject({
        role: "user",
        content: [{ type: "text" }, { type: "image" }, { type: "image" }, { type: "document" }, { type: "text" }],
      });
    });

    it.each(BAD.filter(([, input]) => input.role === "user"))(
      "edit refuses %s with INVALID_CONTENT and changes nothing",
      async (_what, input) => {
        const { chat, chats } = await setup(engine);
        const q = await chat.append({ role: "user", content: "hello" });
        await chat.append({ role: "assistant", content: "hi" });
        const before = await snapshot(chat, chats);
        await expectRejectCode(() => chat.edit(q.id, input.content), "INVALID_CONTENT");
        expect(await snapshot(chat, chats)).toEqual(before);
      },
    );

    it("an assistant turn with reasoning and tool calls keeps its reasoning with the unit", async () => {
      const { chat } = await setup(engine);
      await chat.append({ role: "user", content: "Weather in Paris?" });
      const reasoned = await chat.append({
        role: "assistant",
        content: [
          { type: "reasoning", text: "I should call the tool.", signature: "sig-1" },
          { type: "redacted-reasoning", data: "ENCRYPTED" },
        ],
        toolCalls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
      });
      expect(reasoned.content).toBe("");
      await chat.append({ role: "tool", toolCallId: "call_1", content: "18 C" });
      const ctx = await chat.buildContext({ format: "anthropic" });
      expect(ctx.messages[1]).toEqual({
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should call the tool.", signature: "sig-1" },
          { type: "redacted_thinking", data: "ENCRYPTED" },
          { type: "tool_use", id: "call_1", name: "weather", input: { city: "Paris" } },
        ],
      });
      // OpenAI's chat format takes no reasoning back: the assistant message is its text and calls.
      const openai = await chat.buildContext();
      expect(openai.messages[1]).toEqual({
        role: "assistant",
        content: "",
        tool_calls: [{ id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }],
      });
    });
  });

  describe("tokens", () => {
    it("counts each image by the chat model's provider rule, once at append", async () => {
      const store = memoryStore();
      const loom = await Loom.open({ engine, store });
      const gpt = await loom.user("u").create({ model: "gpt-4o" });
      const claude = await loom.user("u").create({ model: "claude-sonnet-4-5" });
      const text = "Describe it.";
      const image = (width: number, height: number, detail?: "low" | "high"): MessageInput => ({
        role: "user",
        content: [
          { type: "text", text },
          { type: "image", image: "https://example.com/a.png", width, height, ...(detail ? { detail } : {}) },
        ],
      });
      const base = {
        gpt: (await gpt.append({ role: "user", content: text })).tokens,
        claude: (await claude.append({ role: "user", content: text })).tokens,
      };
      expect((await gpt.append(image(1024, 1024))).tokens - base.gpt).toBe(765); // 768 x 768: 4 tiles
      expect((await gpt.append(image(4000, 4000, "low"))).tokens - base.gpt).toBe(85);
      expect((await claude.append(image(1000, 1000))).tokens - base.claude).toBe(1334); // 1,000,000 / 750
      expect((await claude.append(image(200, 200))).tokens - base.claude).toBe(54);
      const unknown = {
        role: "user" as const,
        content: [
          { type: "text" as const, text },
          { type: "image" as const, image: "https://example.com/a.png" },
        ],
      };
      expect((await gpt.append(unknown)).tokens - base.gpt).toBe(1445);
      expect((await claude.append(unknown)).tokens - base.claude).toBe(1600);
      const pdf = (
        await gpt.append({
          role: "user",
          content: [
            { type: "text", text },
            { type: "file", data: PDF, mediaType: "application/pdf" },
          ],
        })
      ).tokens;
      expect(pdf - base.gpt).toBe(Math.ceil((PDF.length * 3) / 4 / 4));
      // The count is kept: a restore does not recount.
      const again = await (await Loom.open({ engine, store })).user("u").open(gpt.id);
      expect(again.path().map((m) => m.tokens)).toEqual(gpt.path().map((m) => m.tokens));
    });
  });

  describe("storage", () => {
    it("parts survive the memory store, SQLite and a restore in a new Loom", async () => {
      for (const store of [memoryStore(), sqliteStore(file(`${engine}.db`))]) {
        const loom = await Loom.open({ engine, store });
        const chat = await loom.user("u").create({ model: "claude-sonnet-4-5" });
        const m1 = await chat.append({ role: "user", content: rich });
        const m2 = await chat.append({
          role: "assistant",
          content: [
            { type: "reasoning", text: "Looking.", signature: "s" },
            { type: "text", text: "A cat." },
          ],
        });
        const edited = await chat.edit(m1.id, [
          { type: "image", image: "https://example.com/dog.png" },
          { type: "text", text: "And this one?" },
        ]);
        await chat.checkout(m2.id);
        const reopened = await (await Loom.open({ engine, store })).user("u").open(chat.id);
        expect(reopened.get(m1.id)).toEqual(m1);
        expect(reopened.get(m2.id)).toEqual(m2);
        expect(reopened.get(edited.id)).toEqual(edited);
        expect(reopened.path()).toEqual(chat.path());
        await loom.close();
      }
    });

    it("the export is version 2 with the parts; an import keeps them and refuses parts that do not hold", async () => {
      const { chat, chats } = await setup(engine);
      await chat.append({ role: "user", content: rich });
      await chat.append({ role: "assistant", content: "A cat." });
      const exported = chat.export();
      expect(exported.version).toBe(2);
      expect(exported.messages[0]!.parts).toEqual(rich);
      const copy = await chats.import(JSON.parse(JSON.stringify(exported)) as ChatExport);
      expect(copy.path()).toEqual(chat.path());
      const withTokensLeftOut = structuredClone(exported);
      for (const m of withTokensLeftOut.messages) delete m.tokens;
      expect((await chats.import(withTokensLeftOut)).path().map((m) => m.tokens)).toEqual(
        chat.path().map((m) => m.tokens),
      );
      const broken = (change: (m: Record<string, unknown>) => void, version = 2) => {
        const x = structuredClone(exported) as unknown as { version: number; messages: Record<string, unknown>[] };
        x.version = version;
        change(x.messages[0]!);
        return x as unknown as ChatExport;
      };
      const before = await chats.list();
      await expectRejectCode(() => chats.import(broken(() => undefined, 1)), "INVALID_ARGUMENT"); // version 1 has no parts
      await expectRejectCode(() => chats.import(broken((m) => (m.content = "other"))), "INVALID_ARGUMENT");
      await expectRejectCode(
        () => chats.import(broken((m) => (m.parts = [{ type: "text", text: m.content }]))),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(
        () => chats.import(broken((m) => ((m.parts as object[])[1] = { type: "image", url: "x" }))),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(() => chats.import(broken((m) => (m.parts = "not a list"))), "INVALID_ARGUMENT");
      expect(await chats.list()).toEqual(before);
    });
  });

  describe("output formats", () => {
    it("OpenAI chat, Anthropic and Responses send the parts", async () => {
      const { chat } = await setup(engine);
      await chat.append({ role: "user", content: rich });
      const openai = await chat.buildContext();
      expect(openai.messages[0]).toEqual({
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "low" } },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: "file", file: { file_data: `data:application/pdf;base64,${PDF}`, filename: "notes.pdf" } },
          { type: "text", text: "And the notes?" },
        ],
      });
      const anthropic = await chat.buildContext({ format: "anthropic" });
      expect(anthropic.messages[0]).toEqual({
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image", source: { type: "url", url: "https://example.com/cat.png" } },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          {
            type: "document",
            source: { type: "base64", media_type: "application/pdf", data: PDF },
            title: "notes.pdf",
          },
          { type: "text", text: "And the notes?" },
        ],
      });
      const responses = await chat.buildContext({ format: "responses" });
      expect(responses.messages[0]).toEqual({
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "What is in this picture?" },
          { type: "input_image", image_url: "https://example.com/cat.png", detail: "low" },
          { type: "input_image", image_url: `data:image/png;base64,${PNG}`, detail: "auto" },
          { type: "input_file", file_data: `data:application/pdf;base64,${PDF}`, filename: "notes.pdf" },
          { type: "input_text", text: "And the notes?" },
        ],
      });
    });

    it("a text file goes to Anthropic as a plain-text document; other files and a file by URL as a line naming them", async () => {
      const { chat } = await setup(engine);
      const text = btoa("hello, world");
      await chat.append({
        role: "user",
        content: [
          { type: "file", data: text, mediaType: "text/plain", filename: "a.txt" },
          {
            type: "file",
            data: "https://example.com/b.docx",
            mediaType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
          },
        ],
      });
      const anthropic = await chat.buildContext({ format: "anthropic" });
      const blocks = anthropic.messages[0]!.content as { type: string }[];
      expect(blocks[0]).toEqual({
        type: "document",
        source: { type: "text", media_type: "text/plain", data: "hello, world" },
        title: "a.txt",
      });
      expect(blocks[1]).toMatchObject({ type: "text" });
      expect((blocks[1] as unknown as { text: string }).text).toContain("https://example.com/b.docx");
      const openai = await chat.buildContext();
      expect((openai.messages[0]!.content as { type: string }[])[1]).toMatchObject({ type: "text" });
    });

    it("history limits cut the text and keep the other parts", async () => {
      const { chat } = await setup(engine);
      const long = "x".repeat(5000);
      await chat.append({
        role: "user",
        content: [
          { type: "text", text: long },
          { type: "image", image: "https://example.com/a.png", detail: "low" },
        ],
      });
      const ctx = await chat.buildContext({
        historyLimits: { maxTurns: 5, maxCharsPerTurn: 100, memoryMaxChars: 100 },
      });
      const content = ctx.messages[0]!.content as { type: string; text?: string }[];
      expect(content.map((p) => p.type)).toEqual(["text", "image_url"]);
      expect(content[0]!.text!.length).toBeLessThan(200);
      expect(ctx.usage.conversation).toBeLessThan(chat.path()[0]!.tokens);
    });
  });
});
