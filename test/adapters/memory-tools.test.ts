// Issue 34, item 3: the memory tool in each SDK's shape (OpenAI Chat Completions and Responses
// function tools, Anthropic's own memory_20250818 and a plain Anthropic tool, the AI SDK's
// ToolSet), answering Anthropic's memory commands (and `update` for typed objects) from a chat's
// memory, every edit a revision by the model from that chat; refusals as tool errors.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { Loom, type Chat } from "../../src/index.js";
import { aiSdkMemoryTool } from "../../src/ai-sdk.js";
import { anthropicMemoryTool } from "../../src/anthropic.js";
import { openAIMemoryTool } from "../../src/openai.js";
import { PROFILE_SCHEMA } from "../memory/memory-cases.js";

async function setup(): Promise<{ loom: Loom; chat: Chat }> {
  const loom = await Loom.open({ counter: "heuristic" });
  const chat = await loom.user("ann").create({ id: "c1" });
  return { loom, chat };
}

describe("the memory tool's definitions, one per SDK format", () => {
  it("are what each SDK's types take", async () => {
    const { loom, chat } = await setup();
    const completions: OpenAI.Chat.Completions.ChatCompletionTool = openAIMemoryTool(chat.memory).definition;
    const responses: OpenAI.Responses.FunctionTool = openAIMemoryTool(chat.memory, { format: "responses" }).definition;
    const native: Anthropic.Messages.ToolUnion = anthropicMemoryTool(chat.memory).definition;
    const plain: Anthropic.Messages.ToolUnion = anthropicMemoryTool(chat.memory, { native: false }).definition;
    expect(native).toEqual({ type: "memory_20250818", name: "memory" });
    expect([
      completions.type,
      (completions as { function: { name: string } }).function.name,
      responses.name,
      (plain as { name: string }).name,
    ]).toEqual(["function", "memory", "memory", "memory"]);
    const commands = (plain as { input_schema: { properties: { command: { enum: string[] } } } }).input_schema
      .properties.command.enum;
    expect(commands).toEqual(["view", "create", "str_replace", "insert", "delete", "rename", "update"]);
    const ai = aiSdkMemoryTool(chat.memory);
    expect(typeof ai.execute).toBe("function");
    expect(ai.description).toMatch(/\/memories/);
    await loom.close();
  });

  it("refuse what is not a memory, and bad options", async () => {
    const { loom, chat } = await setup();
    const bad = (f: () => unknown) => expect(f).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    bad(() => openAIMemoryTool(chat as never));
    bad(() => anthropicMemoryTool({} as never));
    bad(() => aiSdkMemoryTool(null as never));
    bad(() => openAIMemoryTool(chat.memory, { format: "chat" as never }));
    bad(() => anthropicMemoryTool(chat.memory, { native: "yes" as never }));
    bad(() => aiSdkMemoryTool(chat.memory, { maxChars: 0 }));
    bad(() => aiSdkMemoryTool(chat.memory, { maxDocuments: 201 }));
    bad(() => aiSdkMemoryTool(chat.memory, { maxChar: 10 } as never));
    await loom.close();
  });
});

describe("the commands, through each SDK's tool", () => {
  it("view, create, str_replace, insert, rename, delete: the files a model keeps; each edit a revision by the model from its chat", async () => {
    const { loom, chat } = await setup();
    const run = anthropicMemoryTool(chat.memory).run;
    expect(await run({ command: "view", path: "/memories" })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:\n0B\t/memories",
    );
    expect(
      await run({ command: "create", path: "/memories/preferences.md", file_text: "# Preferences\n- metric units" }),
    ).toBe("File created successfully at: /memories/preferences.md");
    expect(
      await run(
        JSON.stringify({
          command: "str_replace",
          path: "/memories/preferences.md",
          old_str: "metric",
          new_str: "imperial",
        }),
      ),
    ).toBe(
      "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\t# Preferences\n     2\t- imperial units",
    );
    expect(
      await run({ command: "insert", path: "/memories/preferences.md", insert_line: 2, insert_text: "- vegetarian\n" }),
    ).toBe("The file /memories/preferences.md has been edited.");
    expect(await run({ command: "view", path: "/memories/preferences.md", view_range: [2, -1] })).toBe(
      "Here's the content of /memories/preferences.md with line numbers:\n     2\t- imperial units\n     3\t- vegetarian",
    );
    expect(await run({ command: "create", path: "/memories/trips/porto.md", file_text: "May" })).toMatch(/created/);
    expect(await run({ command: "rename", old_path: "/memories/trips", new_path: "/memories/past" })).toBe(
      "Successfully renamed /memories/trips to /memories/past",
    );
    expect(await run({ command: "view", path: "/memories" })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:\n" +
        "46B\t/memories\n3B\t/memories/past/\n3B\t/memories/past/porto.md\n43B\t/memories/preferences.md",
    );
    expect(await run({ command: "delete", path: "/memories/past" })).toBe("Successfully deleted /memories/past");
    const history = await chat.memory.history();
    expect(history.map((r) => [r.revision, r.path, r.kind, r.by, r.chatId])).toEqual([
      [1, "preferences.md", "text", "model", "c1"],
      [2, "preferences.md", "text", "model", "c1"],
      [3, "preferences.md", "text", "model", "c1"],
      [4, "trips/porto.md", "text", "model", "c1"],
      [5, "past/porto.md", "text", "model", "c1"],
      [5, "trips/porto.md", "deleted", "model", "c1"],
      [6, "past/porto.md", "deleted", "model", "c1"],
    ]);
    expect((await chat.memory.read()).documents.map((d) => [d.path, d.kind === "text" ? d.text : ""])).toEqual([
      ["preferences.md", "# Preferences\n- imperial units\n- vegetarian"],
    ]);
    await loom.close();
  });

  it("a typed object: viewed as JSON with its schema, edited as text or updated by key, always what its schema admits", async () => {
    const { loom, chat } = await setup();
    await chat.memory.write({
      path: "profile",
      value: { name: "Ann", units: "metric" },
      schema: PROFILE_SCHEMA,
      revision: 0,
    });
    const tool = openAIMemoryTool(chat.memory);
    expect(await tool.run(JSON.stringify({ command: "view", path: "/memories/profile" }))).toBe(
      `Here's the content of /memories/profile (a typed object: its JSON must match the schema ${JSON.stringify(PROFILE_SCHEMA)}) with line numbers:\n` +
        '     1\t{\n     2\t  "name": "Ann",\n     3\t  "units": "metric"\n     4\t}',
    );
    expect(
      await tool.run({ command: "str_replace", path: "/memories/profile", old_str: '"metric"', new_str: '"imperial"' }),
    ).toMatch(/edited/);
    expect(
      await tool.run({ command: "update", path: "/memories/profile", patch: { diet: { vegetarian: true } } }),
    ).toBe("The typed object /memories/profile has been updated.");
    expect(await tool.run({ command: "update", path: "/memories/profile", patch: { age: 40 } })).toMatch(
      /^Error: profile would not match its schema: \/age is not a property/,
    );
    expect(
      await tool.run({ command: "str_replace", path: "/memories/profile", old_str: '"Ann"', new_str: "Ann" }),
    ).toMatch(/^Error: .*must leave JSON/);
    const doc = (await chat.memory.read()).documents[0]!;
    expect(doc.kind === "object" && doc.value).toEqual({ name: "Ann", units: "imperial", diet: { vegetarian: true } });
    // Anthropic's own tool has no update command.
    expect(
      await anthropicMemoryTool(chat.memory).run({ command: "update", path: "/memories/profile", patch: {} }),
    ).toMatch(/^Error: The command must be one of view, create/);
    await loom.close();
  });

  it("the AI SDK tool answers through execute, and a refusal fails the call with the memory's message", async () => {
    const { loom, chat } = await setup();
    const tool = aiSdkMemoryTool(chat.memory);
    const options = { toolCallId: "t1", messages: [], context: {} };
    expect(await tool.execute!({ command: "create", path: "/memories/a.md", file_text: "x" }, options)).toMatch(
      /created/,
    );
    const refused = await Promise.resolve(
      tool.execute!({ command: "create", path: "/memories/../b.md", file_text: "x" }, options),
    ).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "INVALID_PATH" });
    expect(String(refused)).toMatch(/is not a path the memory holds/);
    await loom.close();
  });

  it("the app's own errors are thrown, not sent to the model", async () => {
    const { loom, chat } = await setup();
    const run = openAIMemoryTool(chat.memory).run;
    await loom.close();
    await expect(run({ command: "view", path: "/memories" })).rejects.toMatchObject({ code: "LOOM_CLOSED" });
  });
});
