// The command as a user runs it: a child process in a temporary folder, through tsx.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { chatgptSample } from "../import/samples.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const tsx = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const main = join(root, "src/cli/main.ts");
const dir = mkdtempSync(join(tmpdir(), "ctxloom-e2e-"));
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

const persistent = existsSync(join(root, "src/store/sqlite.ts"));
if (!persistent)
  console.warn(
    "cli/e2e.test.ts: the persistence test is skipped, this build has no SQLite store (src/store/sqlite.ts).",
  );

function ctxloom(...args: string[]) {
  const r = spawnSync(process.execPath, ["--import", tsx, main, ...args], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `ctxloom <args> | <reader>` in bash with pipefail: the exit code is ctxloom's unless the reader fails. */
function piped(args: string[], reader: string) {
  const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const line = `set -o pipefail; ${[process.execPath, "--import", tsx, main, ...args].map(quote).join(" ")} | ${reader}`;
  const r = spawnSync("bash", ["-c", line], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("ctxloom in a child process", () => {
  it("--version and --help exit 0", () => {
    expect(ctxloom("--version")).toMatchObject({ code: 0, out: `${version}\n` });
    expect(ctxloom("context", "--help")).toMatchObject({ code: 0, out: expect.stringContaining("--model <m>") });
  });

  it("imports a file, with a JSON report", () => {
    writeFileSync(join(dir, "conversations.json"), JSON.stringify([chatgptSample()]));
    const r = ctxloom("import", "conversations.json", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).files[0].chats[0]).toMatchObject({ title: "Plot it", messages: 7, leaves: 2 });
  });

  it("bad input exits 1 and usage mistakes exit 2, with a message and never a stack", () => {
    writeFileSync(
      join(dir, "broken.json"),
      '[{"mapping": {"a": {"id": "a", "parent": "b", "children": [], "message": null}}}]',
    );
    const bad = ctxloom("import", "broken.json");
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('ctxloom: broken.json: conversation 1: message "a": its parent "b" is missing.');
    expect(bad.err).not.toMatch(/\n\s+at /);
    const usage = ctxloom("tree");
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("tree takes 1 argument(s); got 0.");
    expect(ctxloom("nope").code).toBe(2);
    expect(ctxloom("show", "a", "--at", "-1")).toMatchObject({
      code: 2,
      out: "",
      err: "ctxloom: --at takes a message id (a whole number from 0); got -1.\n",
    });
    expect(ctxloom("chats", "--user")).toMatchObject({
      code: 2,
      out: "",
      err: "ctxloom: --user takes a user id; got nothing.\n",
    });
  });

  it("demo narrates every step and shows priorities at work; demo --json gives the same figures as one object", () => {
    const text = ctxloom("demo");
    expect(text).toMatchObject({ code: 0, err: "" });
    // How #9 and #10 are made is said before the context built from them.
    expect(text.out).toContain(
      '4. back to answer #3; append #9 "Remember: I am vegetarian." (priority critical) and #10 "Noted: vegetarian options only from now on." (priority low)',
    );
    expect(text.out.indexOf("4. back to answer #3")).toBeLessThan(text.out.indexOf("from head #10"));
    expect(text.out).toMatch(/= \d+ of 128 tokens; 1 evicted: #10\n/);
    expect(text.out).toContain("the default stable prefix would leave out the oldest, #0,");
    // The README's copy of the output (trimmed where it says "...") is what the demo prints.
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const copy = readme.slice(readme.indexOf("```\n", readme.indexOf("`npm start` runs")) + 4);
    const lines = copy
      .slice(0, copy.indexOf("```"))
      .split("\n")
      .filter((l) => l !== "" && l !== "...");
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(text.out.split("\n"), line).toContain(line);
    const r = ctxloom("demo", "--json", "--engine", "js");
    expect(r).toMatchObject({ code: 0, err: "" });
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({
      engine: "js",
      tree: { messages: 9, head: 4, leaves: [3, 4, 8] },
      slidingWindow: { maxTokens: 40 },
    });
    // The plain selection leaves out the low-priority answer and keeps the critical message and the oldest one.
    expect(j.context).toMatchObject({
      window: 150,
      head: 10,
      critical: 9,
      low: 10,
      kept: [0, 1, 2, 3, 9],
      leftOut: [10],
      evicted: 1,
    });
    expect(j.context.usage.total).toBeLessThanOrEqual(j.context.usage.limit);
    expect(j.context.withStablePrefix.leftOut).toEqual([0]);
    expect(j.budgets.map((b: { model: string }) => b.model)).toEqual(["small-demo (300 tokens)", "gpt-4o"]);
    expect(j.summary).toMatchObject({ messages: 48, compressed: true, compressions: 1, path: 48 });
    expect(j.summary.content).toMatch(/^Summary of the earlier conversation:/);
    expect(j.recall.recalled).toEqual([0, 1]);
    if (persistent) expect(j).toMatchObject({ store: "sqlite", restore: { identical: true, leaves: [4, 8, 10] } });
    expect(ctxloom("demo", "--help").out).toContain("fresh SQLite file in a temporary folder");
  });

  it("models --json is JSON", () => {
    const r = ctxloom("models", "claude", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).length).toBeGreaterThan(0);
  });
});

describe.skipIf(!persistent)("ctxloom on a database file", () => {
  it("keeps chats and heads between commands", () => {
    writeFileSync(join(dir, "keep.json"), JSON.stringify([chatgptSample()]));
    const db = ["--db", join(dir, "keep.db")];
    const id = JSON.parse(ctxloom("import", "keep.json", "--json", ...db).out).files[0].chats[0].id as string;
    expect(JSON.parse(ctxloom("chats", "--json", ...db).out).map((c: { id: string }) => c.id)).toEqual([id]);
    expect(ctxloom("checkout", id, "3", ...db).code).toBe(0);
    expect(ctxloom("tree", id, ...db).out).toContain("#3 assistant: It is 42.  <- head");
    // The chat remembers the conversation it came from: importing the file again makes no copy.
    expect(JSON.parse(ctxloom("import", "keep.json", "--json", ...db).out).files[0].chats[0]).toMatchObject({
      id,
      status: "unchanged",
    });
    expect(JSON.parse(ctxloom("chats", "--json", ...db).out).map((c: { id: string }) => c.id)).toEqual([id]);
    expect(JSON.parse(ctxloom("chats", "--json", "--user", "other", ...db).out)).toEqual([]);
  });

  it("a reader that stops early (| head) ends the output quietly, exit 0", () => {
    // 2,000 messages: the export is far larger than a pipe's buffer, so most of it is written after head has gone.
    const messages = Array.from({ length: 2000 }, (_, i) => ({
      role: i % 2 ? "assistant" : "user",
      content: `message ${i} ${"x".repeat(200)}`,
    }));
    writeFileSync(join(dir, "big.jsonl"), JSON.stringify({ messages }) + "\n");
    const db = ["--db", join(dir, "pipe.db")];
    const id = JSON.parse(ctxloom("import", "big.jsonl", "--json", ...db).out).files[0].chats[0].id as string;
    expect(ctxloom("export", id, ...db).out.length).toBeGreaterThan(400_000);
    expect(piped(["export", id, "--format", "json", ...db], "head -1")).toEqual({ code: 0, out: "{\n", err: "" });
    expect(piped(["chats", ...db], "head -0")).toEqual({ code: 0, out: "", err: "" });
    expect(piped(["tree", id, ...db], "head -c 10")).toMatchObject({ code: 0, err: "" });
  });
});
