// The public surface is what api/ says it is: the reports are written afresh from the types the
// build emits (tsconfig.build.json, stripInternal) and must equal the checked-in ones, so that
// every change to the published types is a reviewed diff (accepted with `npm run api:update`);
// and no report may hold a forgotten export or an undocumented member (scripts/api-report.mjs's reportFaults).
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiReport as report, compileDeclarations, entryPoints, reportFaults } from "../../scripts/api-report.mjs";
import { repoRoot } from "./fixture.js";

let work: string;
let dist: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "ctxloom-api-test-"));
  dist = join(work, "dist");
  compileDeclarations(dist);
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const api = (name: string) => readFileSync(join(repoRoot, "api", name), "utf8");

describe("the API report", () => {
  test("the built types match api/ (on a difference: the diff, and `npm run api:update` to accept it)", () => {
    const { ok, text } = report({ dist });
    expect(ok, text).toBe(true);
  }, 120_000);

  test("a change to the surface fails the check, with the diff and the command that accepts it", () => {
    const copy = join(work, "api-changed");
    cpSync(join(repoRoot, "api"), copy, { recursive: true });
    const index = join(copy, "index.api.md");
    writeFileSync(
      index,
      readFileSync(index, "utf8").replace(
        "static open(options?: LoomOptions): Promise<Loom>;",
        "static open(): Promise<Loom>;",
      ),
    );
    const { ok, text } = report({ dist, api: copy });
    expect(ok).toBe(false);
    expect(text).toContain("-    static open(): Promise<Loom>;");
    expect(text).toContain("+    static open(options?: LoomOptions): Promise<Loom>;");
    expect(text).toContain("npm run api:update");
  }, 120_000);

  test("a report's faults are named with the report and the symbol: a forgotten export, an undocumented declaration or member", () => {
    const sample = [
      '## API Report File for "ctxloom"',
      "",
      "```ts",
      "",
      '// Warning: (ae-forgotten-export) The symbol "EngineOptions" needs to be exported by the entry point index.d.ts',
      "//",
      "// @public",
      "export interface LoomOptions extends EngineOptions {",
      "    calibration?: CalibrationState;",
      "    // (undocumented)",
      "    store?: Store;",
      "}",
      "",
      "// @public (undocumented)",
      'export type Role = "system" | "user";',
      "",
      "// @public",
      "export class SlidingWindow {",
      "    // (undocumented)",
      "    readonly maxTokens: number;",
      "    // (undocumented)",
      "    stats(): WindowStats;",
      "}",
      "",
      "// Warnings were encountered during analysis:",
      "//",
      '// dist/store/types.d.ts - (ae-forgotten-export) The symbol "ChatRecord" needs to be exported by the entry point index.d.ts',
      "",
      "```",
    ].join("\n");
    const faults = reportFaults("index.api.md", sample);
    expect(faults.map((f: string) => f.replace(/ \(.*$/, ""))).toEqual([
      'api/index.api.md: "EngineOptions" is named by a public declaration but not exported by the entry point',
      "api/index.api.md: LoomOptions.store is undocumented",
      "api/index.api.md: Role is undocumented",
      "api/index.api.md: SlidingWindow.maxTokens is undocumented",
      "api/index.api.md: SlidingWindow.stats is undocumented",
      'api/index.api.md: "ChatRecord" is named by a public declaration but not exported by the entry point',
    ]);
    expect(reportFaults("index.api.md", sample.replace(/.*\((?:undocumented|ae-forgotten-export)\).*\n/g, ""))).toEqual(
      [],
    );
  });

  test("the check fails on a forgotten export or an undocumented member even when the reports match api/", () => {
    // Types with both faults: a member's JSDoc taken out, a type LoomOptions extends no longer exported.
    const faulty = join(work, "dist-faulty");
    cpSync(dist, faulty, { recursive: true });
    const view = join(faulty, "chat/chat-view.d.ts");
    const viewText = readFileSync(view, "utf8");
    expect(viewText).toMatch(/\/\*\*[^\n]*\*\/\n(\s+)get title\(\)/);
    writeFileSync(view, viewText.replace(/\/\*\*[^\n]*\*\/\n(\s+get title\(\))/, "$1"));
    const index = join(faulty, "index.d.ts");
    const indexText = readFileSync(index, "utf8");
    expect(indexText).toContain("EngineOptions, ");
    writeFileSync(index, indexText.replace("EngineOptions, ", ""));
    const api = join(work, "api-faulty");
    expect(report({ dist: faulty, api, update: true }).ok).toBe(true);
    const { ok, text } = report({ dist: faulty, api });
    expect(ok, text).toBe(false);
    expect(text).toContain("api/index.api.md: ChatView.title is undocumented");
    expect(text).toContain(
      'api/index.api.md: "EngineOptions" is named by a public declaration but not exported by the entry point',
    );
  }, 120_000);

  test("one report per entry point of package.json, and none for an entry that is gone", () => {
    const names = entryPoints()
      .map((e) => `${e.name}.api.md`)
      .sort();
    expect(
      readdirSync(join(repoRoot, "api"))
        .filter((n) => n.endsWith(".api.md"))
        .sort(),
    ).toEqual(names);
    expect(names).toEqual(
      expect.arrayContaining(["index.api.md", "tokens.api.md", "store.api.md", "sqlite.api.md", "ai-sdk.api.md"]),
    );
  });

  test("nothing internal reaches the published types", () => {
    const index = api("index.api.md");
    // Looms come from Loom.open(), chats from a user's chats: no constructor to call, no engine to reach.
    expect(index).toMatch(/export class Loom \{\n {4}close\(\)/);
    for (const internal of [
      "engineImpl",
      "withEngine",
      "retire(",
      "evict(",
      "lastUse",
      "constructor(ctx",
      "constructor(engine",
      "pushRun",
      "resident?(",
    ]) {
      expect(index, internal).not.toContain(internal);
    }
    // What left the main entry: internals, and the advanced pieces that have their own entries.
    for (const name of [
      "MessageColumns",
      "STORE_METHODS",
      "EMBED_BATCH",
      "RECALL_HEADER",
      "heuristicCounter",
      "wasmBpeCounter",
      "loadEncoding",
      "messageTokens",
    ]) {
      expect(index, name).not.toContain(`export const ${name}`);
      expect(index, name).not.toContain(`export function ${name}`);
      expect(index, name).not.toContain(`export class ${name}`);
    }
    expect(api("tokens.api.md")).toContain("export function loadEncoding(");
    expect(api("store.api.md")).toContain("export interface LoadedChat");
  });
});
