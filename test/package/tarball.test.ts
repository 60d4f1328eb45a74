// The packed tarball, installed into a fresh project outside the repository: its contents,
// its export map, a Node ESM program and a TypeScript type check that use it by name.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { cleanEnv, installedPackage, repoRoot, sh, type InstalledPackage } from "./fixture.js";

let pkg: InstalledPackage;
beforeAll(async () => {
  pkg = await installedPackage();
}, 240_000);

/** Every file an export map points at, with the conditions that lead there. */
function exportTargets(exports: unknown, conditions: string[] = []): { target: string; conditions: string[] }[] {
  if (typeof exports === "string") return [{ target: exports, conditions }];
  if (exports === null || typeof exports !== "object") return [];
  return Object.entries(exports).flatMap(([key, value]) => exportTargets(value, [...conditions, key]));
}

describe("npm pack", () => {
  test("ships the build, the .wasm file and the types, and nothing of the sources or tests", () => {
    for (const file of [
      "package.json",
      "LICENSE",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/index.workerd.js",
      "dist/ctxloom.wasm",
      "dist/ctxloom.wasm.d.ts",
      "dist/cli/main.js",
      "dist/sqlite.js",
      "dist/sqlite.d.ts",
    ]) {
      expect(pkg.files).toContain(file);
    }
    const stray = pkg.files.filter(
      (f) =>
        !/^(package\.json|README\.md|LICENSE|dist\/.+)$/.test(f) ||
        (f.endsWith(".ts") && !f.endsWith(".d.ts")) ||
        f.includes(".test."),
    );
    expect(stray).toEqual([]);
  });

  test("every export target exists in the installed package, and types come first", () => {
    const manifest = JSON.parse(readFileSync(join(pkg.packageDir, "package.json"), "utf8"));
    const targets = exportTargets(manifest.exports);
    expect(targets.length).toBeGreaterThan(0);
    for (const { target, conditions } of targets) {
      expect(existsSync(join(pkg.packageDir, target)), `${conditions.join(" > ")} -> ${target}`).toBe(true);
    }
    expect(Object.keys(manifest.exports["."])).toEqual(["types", "workerd", "deno", "browser", "import", "default"]);
    expect(Object.keys(manifest.exports["./wasm"])[0]).toBe("types");
    expect(Object.keys(manifest.exports["./sqlite"])[0]).toBe("types");
    // The .wasm file sits beside the workerd entry that imports it.
    expect(readFileSync(join(pkg.packageDir, "dist/index.workerd.js"), "utf8")).toContain(`from "./ctxloom.wasm"`);
    expect(existsSync(join(pkg.packageDir, manifest.bin.ctxloom))).toBe(true);
  });
});

describe("a fresh project that installed the tarball", () => {
  test("Node runs the scenario on the WASM engine, resolving ctxloom to the package's dist", async () => {
    const out = JSON.parse(await sh(process.execPath, ["node-main.js"], { cwd: pkg.project }));
    expect(out.runtime.name).toBe("node");
    expect(out.runtime.resolved).toBe(`file://${join(pkg.packageDir, "dist/index.js")}`);
    expect(out.report.engine).toBe("wasm");
    const { path, context } = out.report as {
      path: { role: string; content: string }[];
      context: { messages: { role: string; content: string }[]; usage: { total: number; limit: number } };
    };
    expect(path.at(-1)).toMatchObject({ role: "assistant", content: "Bacalhau à Brás and a bifana." });
    // The context: the system prompt, the active branch (not the other ones), then the new input.
    expect(context.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant", "user"]);
    expect(context.messages.at(-1)!.content).toBe("And a cheap day trip?");
    expect(context.messages.slice(1, -1).map((m) => m.content)).toEqual(path.map((m) => m.content));
    expect(context.usage.total).toBeLessThanOrEqual(context.usage.limit);
  });

  test("Node loads the core from the ctxloom/wasm subpath, and the bin runs", async () => {
    const script = join(pkg.project, "subpath-check.mjs");
    writeFileSync(
      script,
      `import { readFile } from "node:fs/promises";\n` +
        `import { fileURLToPath } from "node:url";\n` +
        `import * as ctxloom from "ctxloom";\n` +
        `import { wasmBpeCounter, heuristicCounter } from "ctxloom/tokens";\n` +
        `import { memoryStore } from "ctxloom/store";\n` +
        `const { Loom, CtxloomError } = ctxloom;\n` +
        `const bytes = await readFile(fileURLToPath(import.meta.resolve("ctxloom/wasm")));\n` +
        `const loom = await Loom.open({ wasm: await WebAssembly.compile(bytes), store: memoryStore() });\n` +
        `let code; try { await Loom.open({ engine: "quantum" }); } catch (e) { code = e instanceof CtxloomError && e.code; }\n` +
        `const counts = [(await wasmBpeCounter("o200k_base")).count("hello world"), heuristicCounter().count("abcdefgh")];\n` +
        `console.log(JSON.stringify({ engine: loom.engine, code, bytes: bytes.length, counts, exports: Object.keys(ctxloom).sort() }));\n`,
    );
    const out = JSON.parse(await sh(process.execPath, [script], { cwd: pkg.project }));
    expect(out).toMatchObject({ engine: "wasm", code: "INVALID_ARGUMENT", bytes: pkg.wasmBytes, counts: [2, 2] });
    // What the main entry holds at run time: what users call (api/index.api.md has their types).
    expect(out.exports).toEqual([
      "CtxloomError",
      "DEFAULT_SUMMARY_PROMPT",
      "Loom",
      "budgetFor",
      "countTokens",
      "geminiCounter",
      "getModelProfile",
      "hashingEmbedder",
      "importConversations",
      "listModels",
      "loadTokenizer",
      "memoryStore",
      "parseExport",
      "parseExportStream",
      "registerEncoding",
      "registerModel",
      "truncateToolResult",
    ]);
    const demo = await sh(process.execPath, [join(pkg.packageDir, "dist/cli/main.js"), "demo"], { cwd: pkg.project });
    expect(demo).toContain("engine wasm");
  });

  test("ctxloom/sqlite: without better-sqlite3 its import throws a CtxloomError saying how to install it; with it, chats persist", async () => {
    const script = join(pkg.project, "sqlite-check.mjs");
    writeFileSync(
      script,
      `import { mkdtempSync } from "node:fs";\n` +
        `import { tmpdir } from "node:os";\n` +
        `import { join } from "node:path";\n` +
        `import { Loom, CtxloomError } from "ctxloom";\n` +
        `let mod;\n` +
        `try { mod = await import("ctxloom/sqlite"); } catch (e) {\n` +
        `  console.log(JSON.stringify({ imported: false, ours: e instanceof CtxloomError, code: e.code, message: e.message }));\n` +
        `  process.exit(0);\n` +
        `}\n` +
        `const file = join(mkdtempSync(join(tmpdir(), "ctxloom-tarball-")), "chats.db");\n` +
        `const loom = await Loom.open({ store: mod.sqliteStore(file) });\n` +
        `const chat = await loom.user("alice").create({ title: "t" });\n` +
        `await chat.append({ role: "user", content: "kept" });\n` +
        `await loom.close();\n` +
        `const again = await Loom.open({ store: mod.sqliteStore(file, { durability: "batched" }) });\n` +
        `const path = (await again.user("alice").open(chat.id)).path().map((m) => m.content);\n` +
        `await again.close();\n` +
        `console.log(JSON.stringify({ imported: true, path }));\n`,
    );
    // The consumer project has no better-sqlite3 (an optional peer dependency is not installed).
    expect(existsSync(join(pkg.project, "node_modules/better-sqlite3"))).toBe(false);
    const { NODE_PATH: _, ...env } = cleanEnv();
    const without = JSON.parse(await sh(process.execPath, [script], { cwd: pkg.project, env }));
    expect(without).toMatchObject({ imported: false, ours: true, code: "STORE_FAILED" });
    expect(without.message).toContain("npm install better-sqlite3");
    // With the repository's better-sqlite3 on NODE_PATH (which the store's createRequire honours).
    const withIt = JSON.parse(
      await sh(process.execPath, [script], {
        cwd: pkg.project,
        env: { ...env, NODE_PATH: join(repoRoot, "node_modules") },
      }),
    );
    expect(withIt).toEqual({ imported: true, path: ["kept"] });
  });

  test("TypeScript type-checks a program against the installed types (NodeNext and bundler resolution)", async () => {
    writeFileSync(
      join(pkg.project, "check.ts"),
      [
        `import { Loom, Chat, CtxloomError, memoryStore, type Message, type LoomOptions, type Store, type ErrorCode } from "ctxloom";`,
        `import core from "ctxloom/wasm";`,
        `import { sqliteStore, type SqliteStore } from "ctxloom/sqlite";`,
        `import { loadEncoding, type TokenCounter } from "ctxloom/tokens";`,
        `import { memoryStore as referenceStore, type LoadedChat, type ChatRecord } from "ctxloom/store";`,
        ``,
        `const module: WebAssembly.Module = core;`,
        `const options: LoomOptions = { engine: "wasm", wasm: module, store: memoryStore() };`,
        `export async function main(): Promise<Message[]> {`,
        `  const loom: Loom = await Loom.open(options);`,
        `  const engine: "wasm" | "js" = loom.engine;`,
        `  const chat = await loom.user("alice").create({ title: "t", model: "gpt-4o" });`,
        `  const m: Message = await chat.append({ role: "user", content: "hi", priority: "high" });`,
        `  const store: Store = memoryStore();`,
        `  const code: ErrorCode | undefined = new CtxloomError("INVALID_ARGUMENT", "x").code;`,
        `  const persistent: SqliteStore = sqliteStore("chats.db", { durability: "batched", batchSize: 100 });`,
        `  const asStore: Store = persistent;`,
        `  // @ts-expect-error: not a durability`,
        `  sqliteStore("chats.db", { durability: "eventual" });`,
        `  void engine; void store; void code; void m.id; void asStore;`,
        `  // @ts-expect-error: not a role`,
        `  await chat.append({ role: "robot", content: "hi" });`,
        `  // Internals are not in the types: Looms come from Loom.open(), chats from a user's chats.`,
        `  // @ts-expect-error: a private constructor`,
        `  new Loom();`,
        `  // @ts-expect-error: Chat is a type only`,
        `  new Chat();`,
        `  // @ts-expect-error: no engine to reach`,
        `  void loom.engineImpl;`,
        `  // @ts-expect-error: chats are retired by their Loom`,
        `  await chat.retire();`,
        `  const counter: TokenCounter = await loadEncoding("o200k_base");`,
        `  const loaded: LoadedChat | undefined = await referenceStore().loadChat("alice", chat.id);`,
        `  const record: ChatRecord | undefined = loaded?.chat;`,
        `  void counter; void record;`,
        `  return chat.path();`,
        `}`,
        ``,
      ].join("\n"),
    );
    const base = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      target: "ES2022",
      lib: ["ES2022", "DOM"],
      types: [],
    };
    const configs = {
      "tsconfig.nodenext.json": { ...base, module: "NodeNext", moduleResolution: "NodeNext" },
      "tsconfig.bundler.json": {
        ...base,
        module: "ESNext",
        moduleResolution: "Bundler",
        customConditions: ["workerd"],
      },
    };
    const tsc = join(repoRoot, "node_modules/.bin/tsc");
    for (const [name, compilerOptions] of Object.entries(configs)) {
      writeFileSync(join(pkg.project, name), JSON.stringify({ compilerOptions, files: ["check.ts"] }, null, 2));
      await sh(tsc, ["-p", name], { cwd: pkg.project });
    }
  });
});
