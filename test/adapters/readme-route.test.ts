// The useChat route of docs/sdks.md (and of the README, the same lines) runs as written: at most
// 15 lines of code, answering the AI SDK's own chat client through DefaultChatTransport. The test
// gives it what the page leaves to the app (its auth, `currentUser`), a database file in a
// temporary folder, and the scripted model in place of the gateway's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DefaultChatTransport } from "ai";
import { expect, test } from "vitest";
import { VanillaChat } from "../../examples/chat-app/client/chat.js";
import { cannedModel } from "../../examples/chat-app/model.js";
import { Loom } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import type { ChatUIMessage } from "../../src/ai-sdk.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
/** The route a page shows: its block that starts `// app/api/chat/route.ts`. */
const routeOf = (page: string) =>
  /```ts\n(\/\/ app\/api\/chat\/route\.ts\n[\s\S]*?)```/.exec(readFileSync(join(root, page), "utf8"))?.[1];
const route = routeOf("docs/sdks.md")!;
const ENTRIES: Record<string, string> = {
  ctxloom: "index.ts",
  "ctxloom/ai-sdk": "ai-sdk.ts",
  "ctxloom/sqlite": "sqlite.ts",
};

test("the README shows the same route", () => {
  expect(route).toBeDefined();
  expect(routeOf("README.md")).toBe(route);
});

test("the route is at most 15 lines of code", () => {
  const code = route.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("//"));
  expect(code.length).toBeLessThanOrEqual(15);
  expect(route).toContain("chatTurn(");
  expect(route).toContain("toUIMessageStreamResponse(turn.stream)");
});

test("the route answers useChat's client: a message, a regeneration, stored in the SQLite file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ctxloom-readme-route-"));
  const db = join(dir, "chats.db");
  const file = join(dir, "route.ts");
  const model = `model: (globalThis as { readmeModel?: never }).readmeModel!`;
  const source = route
    .replace(
      /from "(ctxloom[^"]*)"/g,
      (_m, name: string) => `from ${JSON.stringify(pathToFileURL(join(root, "src", ENTRIES[name]!)).href)}`,
    )
    .replace(`"./chats.db"`, JSON.stringify(db))
    .replace(`model: "openai/gpt-4o-mini"`, model);
  expect(source).toContain(model); // the page still names its model where the test puts the scripted one
  writeFileSync(
    file,
    `const currentUser = async (_request: Request) => ({ id: "alice" });\n${source}\nexport { loom };\n`,
  );
  (globalThis as { readmeModel?: unknown }).readmeModel = cannedModel(0);
  try {
    const { POST, loom } = (await import(pathToFileURL(file).href)) as {
      POST: (r: Request) => Promise<Response>;
      loom: Loom;
    };
    const ui = new VanillaChat<ChatUIMessage>({
      id: "readme-chat",
      transport: new DefaultChatTransport({
        api: "http://app/api/chat",
        fetch: (url, init) => POST(new Request(url, init)),
      }),
    });
    await ui.sendMessage({ text: "Hello" });
    await ui.regenerate();
    expect(ui.messages.map((m) => [m.role, m.id])).toEqual([
      ["user", ui.messages[0]!.id],
      ["assistant", "2"],
    ]);
    expect(ui.messages[1]!.metadata!.branch).toEqual({ index: 1, count: 2, ids: [1, 2] });
    await loom.close();
    // Read back from the file by another Loom.
    const again = await Loom.open({ store: sqliteStore(db) });
    const chat = await again.user("alice").open("readme-chat");
    expect(chat.messageCount).toBe(3);
    expect(chat.children(0)).toEqual([1, 2]);
    expect(chat.path().map((m) => m.content)).toEqual(["Hello", expect.stringMatching(/^Answer 2 to “Hello”/)]);
    await again.close();
  } finally {
    delete (globalThis as { readmeModel?: unknown }).readmeModel;
    rmSync(dir, { recursive: true, force: true });
  }
});
