// The command in process: every command against one memory store shared by the runs, as the
// SQLite file is shared by separate invocations.
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { memoryStore } from "../../src/store/memory.js";
import { chatgptSample } from "../import/samples.js";
import { cli, dir, file } from "./cli.js";

describe("help, version and usage", () => {
  it("--help and --version exit 0", async () => {
    expect(await cli(["--help"])).toMatchObject({ code: 0, out: expect.stringContaining("Commands:") });
    expect(await cli(["-v"])).toMatchObject({ code: 0, out: "9.9.9" });
    for (const c of ["import", "chats", "tree", "show", "checkout", "context", "stats", "export", "models", "demo"]) {
      expect(await cli([c, "--help"])).toMatchObject({
        code: 0,
        out: expect.stringMatching(new RegExp(`^Usage: ctxloom ${c}`)),
      });
    }
  });
  it("usage mistakes exit 2 and say what to do", async () => {
    expect(await cli([])).toMatchObject({ code: 2, err: expect.stringContaining("Usage: ctxloom <command>") });
    expect(await cli(["improt", "x"])).toMatchObject({
      code: 2,
      err: 'ctxloom: unknown command "improt"; did you mean import? Run ctxloom --help for the commands.',
    });
    expect(await cli(["import", "x", "--fromat", "chatgpt"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("unknown option --fromat; did you mean --format?"),
    });
    expect(await cli(["import"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("import takes 1 or more argument(s); got 0."),
    });
    expect(await cli(["import", "x", "--format", "csv"])).toMatchObject({
      code: 2,
      err: expect.stringContaining("--format takes auto or one of chatgpt"),
    });
    expect(await cli(["checkout", "a"])).toMatchObject({ code: 2 });
    // --model is optional (the chat's model by default): a missing chat is bad input, not bad usage.
    expect(await cli(["context", "a"])).toEqual({
      code: 1,
      out: "",
      err: 'ctxloom: no chat "a" for user "local"; run ctxloom chats for the list.',
    });
    expect(await cli(["show", "a", "--at"])).toMatchObject({ code: 2 });
  });
  it("a number option refuses what is no whole number from 0, naming the option and what was typed (exit 2)", async () => {
    const cases: [string[], string][] = [
      [["show", "a", "--at", "-1"], "--at takes a message id (a whole number from 0); got -1."],
      [["show", "a", "--at=-1"], "--at takes a message id (a whole number from 0); got -1."],
      [["show", "a", "--at", "abc"], "--at takes a message id (a whole number from 0); got abc."],
      [["show", "a", "--at", "1.5"], "--at takes a message id (a whole number from 0); got 1.5."],
      [["show", "a", "--at", ""], '--at takes a message id (a whole number from 0); got "".'],
      [
        ["summarize", "a", "--keep-last", "-1"],
        "--keep-last takes a number of messages (a whole number from 0); got -1.",
      ],
      [
        ["summarize", "a", "--keep-last", "abc"],
        "--keep-last takes a number of messages (a whole number from 0); got abc.",
      ],
      [["recall", "a", "q", "--prompts", "-2"], "--prompts takes a number of prompts (a whole number from 0); got -2."],
      [
        ["recall", "a", "q", "--recent", "1e3"],
        "--recent takes a number of exchanges (a whole number from 0); got 1e3.",
      ],
      [["checkout", "a", "-1"], "checkout takes a message id (a whole number from 0) after the chat; got -1."],
      [["checkout", "a", "x"], "checkout takes a message id (a whole number from 0) after the chat; got x."],
    ];
    for (const [args, message] of cases)
      expect(await cli(args), args.join(" ")).toEqual({ code: 2, out: "", err: `ctxloom: ${message}` });
  });
  it("an option without its value is refused by name (exit 2); a word after an option that takes one is its value", async () => {
    expect(await cli(["chats", "--user"])).toEqual({
      code: 2,
      out: "",
      err: "ctxloom: --user takes a user id; got nothing.",
    });
    expect(await cli(["chats", "--user", "--json"])).toEqual({
      code: 2,
      out: "",
      err: "ctxloom: --user takes a user id; got nothing (--json is an option).",
    });
    expect(await cli(["show", "a", "--at"])).toEqual({
      code: 2,
      out: "",
      err: "ctxloom: --at takes a message id (a whole number from 0); got nothing.",
    });
    expect(await cli(["export", "a", "--format"])).toEqual({
      code: 2,
      out: "",
      err: "ctxloom: --format takes json or openai-jsonl; got nothing.",
    });
    expect(await cli(["chats", "--json=yes"])).toEqual({
      code: 2,
      out: "",
      err: "ctxloom: --json takes no value; got --json=yes.",
    });
    // "-bob" is the user's id, "-5" a word of the query: read as values, not as options.
    expect(await cli(["chats", "--user", "-bob"])).toEqual({
      code: 0,
      out: 'no chats for user "-bob"; add some with ctxloom import <file>.',
      err: "",
    });
    expect(await cli(["recall", "a", "-5", "degrees", "--scope", "nowhere"])).toMatchObject({
      code: 2,
      err: "ctxloom: --scope takes branch, chat or user; got nowhere.",
    });
  });
  it("no message has doubled punctuation", async () => {
    const runs = [
      ["improt"],
      ["zzzzzz"],
      ["chats", "--dbb", "x"],
      ["chats", "--zzzz"],
      ["chats", "--json=1"],
      ["tree"],
      ["show", "a", "--at", "-1"],
      ["import", join(dir, "none.json")],
      ["import", dir],
      ["import", "x", "--format", "csv"],
      ["context", "a"],
      ["demo", "--engine", "c"],
      ["tree", "nope"],
    ];
    for (const args of runs) {
      const r = await cli(args);
      expect(r.code, args.join(" ")).toBeGreaterThan(0);
      expect(r.err, args.join(" ")).not.toMatch(/[?!]\.|(^|[^.])\.\.($|[^.])/m);
    }
  });
});

describe("a chat through every command", () => {
  const store = memoryStore();
  let id = "";
  beforeAll(async () => {
    const r = await cli(["import", file("chatgpt.json", JSON.stringify([chatgptSample()])), "--json"], store);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.files[0]).toMatchObject({
      format: "chatgpt",
      chats: [{ title: "Plot it", messages: 7, leaves: 2, placeholders: { image: 1 }, toolResultsAsUser: 1 }],
    });
    id = report.files[0].chats[0].id;
  });

  it("chats lists it", async () => {
    const r = await cli(["chats", "--json"], store);
    expect(JSON.parse(r.out)).toMatchObject([{ id, title: "Plot it", messageCount: 7 }]);
    expect((await cli(["chats"], store)).out).toContain("Plot it");
    expect((await cli(["chats", "--user", "bob"], store)).out).toContain('no chats for user "bob"');
  });

  it("tree draws the branches and marks the head; chats are found by title or id prefix", async () => {
    const r = await cli(["tree", "Plot it"], store);
    expect(r.code).toBe(0);
    expect(r.out).toContain("#6 assistant: 42  <- head");
    expect(r.out).toContain("7 messages, 2 branches, head #6");
    const j = JSON.parse((await cli(["tree", id.slice(0, 8), "--json"], store)).out);
    expect(j).toMatchObject({ head: 6, leaves: [4, 6] });
    expect(j.messages[2]).toEqual({ id: 2, parentId: 1, role: "tool", content: "42" });
  });

  it("show prints root to head, or to --at; checkout moves the head", async () => {
    expect((await cli(["show", id], store)).out).toBe("#5 user\nWhat is 6 times 7?\n\n#6 assistant  <- head\n42\n");
    const at = JSON.parse((await cli(["show", id, "--at", "2", "--json"], store)).out);
    expect(at.map((m: { id: number }) => m.id)).toEqual([0, 1, 2]);
    expect(await cli(["checkout", id, "3"], store)).toMatchObject({
      code: 0,
      out: `head of ${id} is now #3 (assistant: It is 42.)`,
    });
    expect(JSON.parse((await cli(["show", id, "--json"], store)).out).map((m: { id: number }) => m.id)).toEqual([
      0, 1, 2, 3,
    ]);
    expect((await cli(["show", id], store)).out).toContain('[call python] "print(6 * 7)"'); // python's code, as the JSON string the importer makes of it
  });

  it("context builds the window with a bar per budget slice", async () => {
    const r = await cli(
      ["context", id, "--model", "gpt-4o", "--input", "And 7 times 8?", "--system", "Be exact."],
      store,
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^system +Be exact\./);
    expect(r.out).toMatch(/\nuser +And 7 times 8\?\n/);
    expect(r.out).toMatch(/\nsystem +█?░+ +\d+ \/ +\d+ +\d+%/);
    expect(r.out).toMatch(/\ntotal +.* \d+ \/ +\d+ +\d+%$/m);
    const j = JSON.parse(
      (await cli(["context", id, "--model", "gpt-4o", "--format", "anthropic", "--json"], store)).out,
    );
    expect(j.system).toBe("");
    expect(j.usage.total).toBeLessThanOrEqual(j.usage.limit);
    expect(j.budget.window).toBe(128000);
    expect(await cli(["context", id, "--model", "no-such-model"], store)).toMatchObject({
      code: 1,
      err: expect.stringContaining("Unknown model"),
    });
  });

  it("context without --model builds for the chat's own model", async () => {
    const r = await cli(["context", id], store);
    expect(r).toMatchObject({ code: 0, err: "" });
    expect(r.out).toContain("\ngpt-4o: ");
    const j = JSON.parse((await cli(["context", id, "--json"], store)).out);
    expect(j).toMatchObject({ model: "gpt-4o", budget: { window: 128000 } });
  });

  it("stats and models", async () => {
    const s = JSON.parse((await cli(["stats", id, "--json"], store)).out);
    expect(s).toMatchObject({ messages: 7, leaves: 2, head: 3, model: "gpt-4o" });
    const m = JSON.parse((await cli(["models", "gpt-4o", "--json"], store)).out);
    expect(m.length).toBeGreaterThan(0);
    expect(m.every((x: { name: string }) => x.name.includes("gpt-4o"))).toBe(true);
    expect((await cli(["models", "zzz"])).out).toBe('no model\'s name contains "zzz".');
  });

  it("export json keeps the tree; openai-jsonl gives one line per branch, which imports back", async () => {
    const exp = JSON.parse((await cli(["export", id], store)).out);
    expect(exp).toMatchObject({ format: "ctxloom.chat", head: 3, chat: { title: "Plot it" } });
    expect(exp.messages.length).toBe(7);
    const lines = (await cli(["export", id, "--format", "openai-jsonl"], store)).out.split("\n");
    expect(lines.length).toBe(2);
    expect(JSON.parse(lines[0]!).messages.map((m: { role: string }) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    const back = await cli(["import", file("back.jsonl", lines.join("\n")), "--json", "--user", "copy"], store);
    expect(JSON.parse(back.out).files[0]).toMatchObject({
      format: "openai",
      chats: [{ messages: 5 }, { messages: 2 }],
    });
    // The json export imports back as it was: same ids, parents, tool links and head.
    const again = await cli(["import", file("again.json", JSON.stringify(exp)), "--json", "--user", "copy2"], store);
    const copy = JSON.parse(again.out).files[0];
    expect(copy).toMatchObject({ format: "ctxloom", chats: [{ messages: 7, leaves: 2 }] });
    const reexported = JSON.parse((await cli(["export", copy.chats[0].id, "--user", "copy2"], store)).out);
    const strip = (e: typeof exp) => ({
      head: e.head,
      messages: e.messages.map(({ createdAt: _c, ...m }: { createdAt: number }) => m),
    });
    expect(strip(reexported)).toEqual(strip(exp));
  });

  it("bad input exits 1 with the error's message, and imports nothing", async () => {
    const good = file("good.json", JSON.stringify([chatgptSample()]));
    const bad = file("bad.json", JSON.stringify([chatgptSample()]).slice(0, -30));
    const r = await cli(["import", good, bad, "--user", "carol"], store);
    expect(r).toMatchObject({
      code: 1,
      err: `ctxloom: ${bad}: conversation 1: the file ends inside it (truncated JSON?). Nothing was imported; fix the file or pick its format with --format (chatgpt, openwebui, librechat, oasst, sharegpt, openai, ctxloom).`,
    });
    expect(JSON.parse((await cli(["chats", "--user", "carol", "--json"], store)).out)).toEqual([]);
    expect(await cli(["import", join(dir, "none.json")], store)).toMatchObject({
      code: 1,
      err: `ctxloom: cannot read ${join(dir, "none.json")}: no such file.`,
    });
    expect(await cli(["tree", "nope"], store)).toMatchObject({
      code: 1,
      err: 'ctxloom: no chat "nope" for user "local"; run ctxloom chats for the list.',
    });
    expect(await cli(["checkout", id, "99"], store)).toMatchObject({ code: 1 });
  });

  it("a chat the Loom refuses while storing takes back the ones stored before it", async () => {
    const chat = (toolCallId: string) => ({
      format: "ctxloom.chat",
      version: 1,
      chat: { title: "t", model: "gpt-4o", system: null, createdAt: 1, updatedAt: 1 },
      head: 2,
      messages: [
        { id: 0, parentId: null, role: "user", content: "a", priority: "normal", createdAt: 1, kind: "message" },
        {
          id: 1,
          parentId: 0,
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
          priority: "normal",
          createdAt: 1,
          kind: "message",
        },
        {
          id: 2,
          parentId: 1,
          role: "tool",
          content: "r",
          toolCallId,
          priority: "normal",
          createdAt: 1,
          kind: "message",
        },
      ],
    });
    const r = await cli(
      ["import", file("two.jsonl", `${JSON.stringify(chat("c1"))}\n${JSON.stringify(chat("c9"))}\n`), "--user", "erin"],
      store,
    );
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^ctxloom: .*c9/);
    expect(JSON.parse((await cli(["chats", "--user", "erin", "--json"], store)).out)).toEqual([]);
  });

  it("draws progress on stderr when it is a terminal", async () => {
    const r = await cli(
      [
        "import",
        file("p.json", JSON.stringify([chatgptSample(), { ...chatgptSample(), conversation_id: "c2" }])),
        "--user",
        "dave",
      ],
      store,
      true,
    );
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/\r█+ +100% {2}0\.0 MB read, 2 conversations/);
    expect(r.err).toContain("2 of 2 chats stored");
  });
});
