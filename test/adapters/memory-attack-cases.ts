// Issue 34, item 3 (goal): 68 path-traversal and size attacks on Anthropic's memory tool,
// answered from a user's memory, each refused with its code, the model told why ("Error: ..."), and
// nothing written: the user's memory, their chat's own and another user's as they were. Run on
// the memory, SQLite and PostgreSQL stores (test/adapters/memory-attacks.test.ts) and in a Durable
// Object (test/runtime/do-worker.ts). No test framework here: the worker bundles it.
import type { Loom } from "../../src/index.js";
import { anthropicMemoryTool } from "../../src/anthropic.js";
import { answerMemoryTool } from "../../src/adapters/memory-tools.js";
import { checkMemoryToolOptions } from "../../src/memory/tool-schema.js";

const CAP = 2_000;
const view = (path: unknown) => ({ command: "view", path });
const create = (path: unknown, file_text = "pwned") => ({ command: "create", path, file_text });
const big = "A".repeat(CAP + 1);

/** [what, the command, the code it is refused with]. The memory holds notes.md (one line) and profile (a typed object); the tool allows 2 files. */
export const ATTACKS: [string, unknown, string][] = [
  ["parent of the root", create("/memories/../etc/passwd"), "INVALID_PATH"],
  ["two parents up", create("/memories/../../etc/passwd"), "INVALID_PATH"],
  ["a relative path", create("../memories/x"), "INVALID_PATH"],
  ["an absolute path outside", create("/etc/passwd"), "INVALID_PATH"],
  ["down and back up past the root", create("/memories/a/../../b"), "INVALID_PATH"],
  ["a dot segment", create("/memories/./x"), "INVALID_PATH"],
  ["a double slash", create("/memories//x"), "INVALID_PATH"],
  ["a folder's path for a file", create("/memories/x/"), "INVALID_PATH"],
  ["backslashes", create("/memories\\..\\x"), "INVALID_PATH"],
  ["a backslash inside", create("/memories/a\\..\\..\\x"), "INVALID_PATH"],
  ["encoded slash", create("/memories/..%2fetc"), "INVALID_PATH"],
  ["encoded dots", create("/memories/%2e%2e/etc"), "INVALID_PATH"],
  ["double-encoded dots", create("/memories/%252e%252e/etc"), "INVALID_PATH"],
  ["a NUL byte", create("/memories/x\u0000/../../etc"), "INVALID_PATH"],
  ["a NUL before the extension", create("/memories/notes\u0000.md"), "INVALID_PATH"],
  ["a look-alike root", create("/memoriesX/y"), "INVALID_PATH"],
  ["the root in capitals", create("/Memories/x"), "INVALID_PATH"],
  ["no leading slash", create("memories/x"), "INVALID_PATH"],
  ["an empty path", create(""), "INVALID_PATH"],
  ["the file system root", create("/"), "INVALID_PATH"],
  ["a home folder", create("~/x"), "INVALID_PATH"],
  ["a key under home", create("/memories/~/.ssh/id_rsa"), "INVALID_PATH"],
  ["a hidden file", create("/memories/.env"), "INVALID_PATH"],
  ["the parent segment alone", create("/memories/.."), "INVALID_PATH"],
  ["too deep", create("/memories/a/b/c/d/e"), "INVALID_PATH"],
  ["a segment too long", create(`/memories/${"a".repeat(65)}`), "INVALID_PATH"],
  ["a path too long", create(`/memories/${Array.from({ length: 4 }, () => "b".repeat(60)).join("/")}`), "INVALID_PATH"],
  ["a Windows drive", create("C:\\Windows\\win.ini"), "INVALID_PATH"],
  ["a drive inside", create("/memories/C:/x"), "INVALID_PATH"],
  ["a space", create("/memories/x y"), "INVALID_PATH"],
  ["a ligature", create("/memories/\ufb01le"), "INVALID_PATH"],
  ["full-width dots", create("/memories/\uff0e\uff0e/x"), "INVALID_PATH"],
  ["a right-to-left override", create("/memories/\u202etxt.md"), "INVALID_PATH"],
  ["a line break", create("/memories/x\n.md"), "INVALID_PATH"],
  ["a file URL", create("file:///etc/passwd"), "INVALID_PATH"],
  ["back in through the root", create("/memories/../memories/x"), "INVALID_PATH"],
  ["through /proc", create("/proc/self/root/etc/passwd"), "INVALID_PATH"],
  ["a link's notation", create("/memories/link->etc"), "INVALID_PATH"],
  ["a path not a string", create(42), "INVALID_PATH"],
  ["a path as a list", create(["/memories/x"]), "INVALID_PATH"],
  ["a file under a file", create("/memories/notes.md/evil"), "PATH_EXISTS"],
  ["view outside", view("/memories/../etc"), "INVALID_PATH"],
  ["view the file system root", view("/"), "INVALID_PATH"],
  [
    "str_replace outside",
    { command: "str_replace", path: "/memories/../x", old_str: "a", new_str: "b" },
    "INVALID_PATH",
  ],
  ["insert outside", { command: "insert", path: "/etc/passwd", insert_line: 0, insert_text: "x" }, "INVALID_PATH"],
  ["rename out", { command: "rename", old_path: "/memories/notes.md", new_path: "/etc/passwd" }, "INVALID_PATH"],
  ["rename up", { command: "rename", old_path: "/memories/notes.md", new_path: "/memories/../x" }, "INVALID_PATH"],
  ["rename the root", { command: "rename", old_path: "/memories", new_path: "/memories/x" }, "INVALID_PATH"],
  [
    "rename onto the root",
    { command: "rename", old_path: "/memories/notes.md", new_path: "/memories" },
    "INVALID_PATH",
  ],
  [
    "rename onto a file",
    { command: "rename", old_path: "/memories/notes.md", new_path: "/memories/profile" },
    "PATH_EXISTS",
  ],
  ["delete the root", { command: "delete", path: "/memories" }, "INVALID_PATH"],
  ["delete the root, slashed", { command: "delete", path: "/memories/" }, "INVALID_PATH"],
  ["delete above the root", { command: "delete", path: "/memories/../" }, "INVALID_PATH"],
  ["a file past the cap", create("/memories/big.md", big), "MEMORY_TOO_LARGE"],
  ["a file of 10 MB", create("/memories/big.md", "B".repeat(10_000_000)), "MEMORY_TOO_LARGE"],
  [
    "a replacement past the cap",
    { command: "str_replace", path: "/memories/notes.md", old_str: "tea", new_str: big },
    "MEMORY_TOO_LARGE",
  ],
  [
    "an insertion past the cap",
    { command: "insert", path: "/memories/notes.md", insert_line: 1, insert_text: big },
    "MEMORY_TOO_LARGE",
  ],
  [
    "an object edited past its schema",
    { command: "str_replace", path: "/memories/profile", old_str: '"Ann"', new_str: JSON.stringify(big) },
    "SCHEMA_MISMATCH",
  ],
  ["a file past the count", create("/memories/third.md", "x"), "MEMORY_TOO_LARGE"],
  ["over a file", create("/memories/notes.md", "x"), "PATH_EXISTS"],
  ["an unknown command", { command: "exec", path: "/memories/x" }, "INVALID_ARGUMENT"],
  [
    "update on Anthropic's own tool",
    { command: "update", path: "/memories/profile", patch: { name: "x" } },
    "INVALID_ARGUMENT",
  ],
  ["an unknown key", { command: "create", path: "/memories/x", file_text: "x", mode: "0777" }, "INVALID_ARGUMENT"],
  ["arguments not JSON", "{command: view", "INVALID_ARGUMENT"],
  [
    "a line past the end",
    { command: "insert", path: "/memories/notes.md", insert_line: 1e9, insert_text: "x" },
    "INVALID_ARGUMENT",
  ],
  [
    "a negative line",
    { command: "insert", path: "/memories/notes.md", insert_line: -1, insert_text: "x" },
    "INVALID_ARGUMENT",
  ],
  ["a range past the end", { command: "view", path: "/memories/notes.md", view_range: [5, 9] }, "INVALID_ARGUMENT"],
  [
    "an empty old_str",
    { command: "str_replace", path: "/memories/notes.md", old_str: "", new_str: "x" },
    "INVALID_ARGUMENT",
  ],
];

/** Sets up user "ann" (tables of `loom`'s store), runs every attack, and says what each answered and whether anything changed. */
export async function attackCases(loom: Loom, rows: () => unknown = () => null): Promise<Record<string, unknown>> {
  const chats = loom.user("ann");
  const chat = await chats.create({ id: "c1" });
  const own = await chats.create({ id: "c2", memoryScope: "chat" });
  await own.memory.write({ path: "secret.md", text: "the chat's own", revision: 0 });
  await loom.user("eve").memory.write({ path: "notes.md", text: "eve's", revision: 0 });
  await chat.memory.write({ path: "notes.md", text: "likes tea", revision: 0 });
  await chat.memory.write({
    path: "profile",
    value: { name: "Ann" },
    schema: { type: "object", properties: { name: { type: "string", maxLength: 40 } } },
    revision: 1,
  });
  const all = async () =>
    JSON.stringify([
      await chat.memory.history(),
      await own.memory.history(),
      await loom.user("eve").memory.history(),
      rows(),
    ]);
  const before = await all();
  const tool = anthropicMemoryTool(chat.memory, { maxChars: CAP, maxDocuments: 2 });
  const limits = checkMemoryToolOptions({ maxChars: CAP, maxDocuments: 2 }, "limits");
  const codes: Record<string, string> = {};
  const texts: string[] = [];
  for (const [what, input] of ATTACKS) {
    const answer = await answerMemoryTool(chat.memory, input, limits, false);
    codes[what] = "error" in answer ? answer.error.code : `not refused: ${answer.text}`;
    texts.push(await tool.run(input));
  }
  return { codes, told: texts.every((t) => t.startsWith("Error: ")), unchanged: (await all()) === before };
}

/** What attackCases must answer. */
export const expectedAttacks = (): Record<string, unknown> => ({
  codes: Object.fromEntries(ATTACKS.map(([what, , code]) => [what, code])),
  told: true,
  unchanged: true,
});
