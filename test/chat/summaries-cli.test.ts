// `ctxloom summarize <chat>` (issue 9): adds a summary to a chat of the database, which the
// next `context` sends and `show` does not (every original stays); the demo's summaries part.
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { memoryStore } from "../../src/store/memory.js";
import type { Store } from "../../src/store/types.js";
import { Loom } from "../../src/index.js";
import { talk } from "./summaries-helpers.js";

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

describe("ctxloom summarize", () => {
  it("summarizes all but the newest messages; context sends the summary; show keeps every original", async () => {
    const store = memoryStore();
    const loom = await Loom.open({ store });
    const chat = await loom.user("local").create({ title: "long", model: "gpt-4o-mini" });
    await talk(chat, 30);
    const id = chat.id;
    expect(await cli(["summarize", "--help"], store)).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^Usage: ctxloom summarize/),
    });
    const done = await cli(["summarize", id, "--keep-last", "4"], store);
    expect(done.code).toBe(0);
    expect(done.out).toMatch(new RegExp(`^summary #60 of ${id} covers #0\\.\\.#55;`));
    expect(done.out).toContain("User: Question 0 asks about topic 0.");
    expect((await cli(["summarize", id], store)).out).toContain("nothing to summarize"); // 4 messages after it, 20 kept
    const json = JSON.parse((await cli(["summarize", id, "--keep-last", "2", "--json"], store)).out);
    expect(json.summary.kind).toBe("summary"); // the summary and the two messages after it, in one
    expect(json.summary.covers).toEqual({ first: 0, last: 57 });
    expect(json.compressions).toBe(2);
    const context = await cli(["context", id, "--model", "gpt-4o-mini", "--json"], store);
    const built = JSON.parse(context.out);
    expect(built.compressed).toBe(true);
    expect(built.messages[0].content).toMatch(/^Summary of the earlier conversation:\n/);
    expect(built.messages).toHaveLength(3);
    const show = JSON.parse((await cli(["show", id, "--json"], store)).out);
    expect(show).toHaveLength(60);
    expect(await cli(["summarize", id, "--keep-last", "x"], store)).toMatchObject({
      code: 2,
      err: expect.stringContaining("--keep-last takes a number of messages (a whole number from 0); got x."),
    });
    await loom.close();
  });

  it("nothing to summarize in a short chat", async () => {
    const store = memoryStore();
    const loom = await Loom.open({ store });
    const chat = await loom.user("local").create({ title: "short" });
    await talk(chat, 2);
    const done = await cli(["summarize", chat.id], store);
    expect(done).toMatchObject({ code: 0, out: expect.stringContaining("nothing to summarize") });
    await loom.close();
  });
});
