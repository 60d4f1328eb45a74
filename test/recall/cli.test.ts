// `ctxloom recall <chat> <query>`: the command in process, on a memory store shared by its runs.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryStore } from "../../src/store/memory.js";
import type { Store } from "../../src/store/types.js";
import { chatgptSample } from "../import/samples.js";

async function cli(args: string[], store: Store) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    progress: false,
    openStore: async () => store,
    version: "9.9.9",
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

it("recall prints the scored exchanges of an imported chat; bad options exit 2", async () => {
  const store = memoryStore();
  const path = join(mkdtempSync(join(tmpdir(), "ctxloom-recall-cli-")), "chatgpt.json");
  writeFileSync(path, JSON.stringify([chatgptSample()]));
  const imported = JSON.parse((await cli(["import", path, "--json"], store)).out);
  const id = imported.files[0].chats[0].id as string;

  const text = await cli(["recall", id, "what", "is", "in", "the", "chart", "--prompts", "1"], store);
  expect(text.code).toBe(0);
  expect(text.out).toMatch(/^ +\d\.\d{3} prompt +#\d+ +user +/);
  const found = JSON.parse((await cli(["recall", id, "what is 6 times 7", "--scope", "branch", "--json"], store)).out); // the chart is on another branch
  expect(found.length).toBeGreaterThan(0);
  expect(found[0]).toMatchObject({ chatId: id, reason: "prompt", message: { role: "user" } });
  // The vectors were stored: they are the embedder's, in the store.
  expect((await store.loadEmbeddings("local", id, { name: "hashing-384", dimension: 384 })).length).toBeGreaterThan(0);

  expect(await cli(["recall", id], store)).toMatchObject({ code: 2 });
  expect(await cli(["recall", id, "x", "--scope", "world"], store)).toMatchObject({
    code: 2,
    err: expect.stringContaining("--scope takes branch, chat or user; got world."),
  });
  expect(await cli(["recall", id, "x", "--prompts", "-1"], store)).toMatchObject({ code: 2 });
  expect(await cli(["recall", "--help"], store)).toMatchObject({
    code: 0,
    out: expect.stringMatching(/^Usage: ctxloom recall/),
  });
});
