// ctxloom context and summarize --context-window (issue 22, item 3): a model the catalog does
// not know, or one served with a smaller window, gets its window from the command line.
import { beforeAll, describe, expect, it } from "vitest";
import { Loom } from "../../src/chat/loom.js";
import { memoryStore } from "../../src/store/memory.js";
import { cli } from "./cli.js";

const store = memoryStore();
let id = "";

beforeAll(async () => {
  const loom = await Loom.open({ store, engine: "js" });
  const chat = await loom.user("local").create({ title: "Window", model: "gpt-4o" });
  for (let i = 0; i < 30; i++)
    await chat.append({ role: i % 2 ? "assistant" : "user", content: `turn ${i}: ${"words ".repeat(100)}` });
  id = chat.id;
});

describe("--context-window", () => {
  it("sets the window of --model: a name of no known family is described by it", async () => {
    const j = JSON.parse(
      (await cli(["context", id, "--model", "my-local-llm", "--context-window", "2048", "--json"], store)).out,
    );
    expect(j).toMatchObject({ model: "my-local-llm", budget: { window: 2048, effective: 1843 } });
    expect(j.usage.total).toBeLessThanOrEqual(j.usage.limit);
    expect(j.evicted).toBeGreaterThan(0);
    const known = JSON.parse(
      (await cli(["context", id, "--model", "gpt-5", "--context-window", "1000000", "--json"], store)).out,
    );
    expect(known.budget).toMatchObject({ window: 1_000_000, effective: 272_000 }); // gpt-5's input limit stays
  });

  it("without --model, sets the chat's model's window; summarize takes it too", async () => {
    const r = await cli(["context", id, "--context-window", "4096"], store);
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("\ngpt-4o: ");
    const j = JSON.parse((await cli(["context", id, "--context-window", "4096", "--json"], store)).out);
    expect(j).toMatchObject({ model: "gpt-4o", budget: { window: 4096 } });
    const s = JSON.parse(
      (await cli(["summarize", id, "--keep-last", "4", "--context-window", "4096", "--json"], store)).out,
    );
    expect(s.usage.limit).toBeLessThan(4096);
  });

  it("a bad window is a usage mistake (exit 2) naming what it takes", async () => {
    for (const bad of ["0", "15", "-5", "abc", "1e6"]) {
      const r = await cli(["context", id, "--model", "my-local-llm", "--context-window", bad], store);
      expect(r, bad).toMatchObject({
        code: 2,
        err: expect.stringContaining("--context-window takes a number of tokens (a whole number from 16)"),
      });
    }
    expect((await cli(["context", id, "--context-window"], store)).code).toBe(2);
    expect((await cli(["context", "--help"], store)).out).toContain("--context-window <n>");
  });
});
