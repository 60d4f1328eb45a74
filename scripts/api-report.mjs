// The public surface of the package, as API reports checked in under api/: one report per entry
// point of package.json "exports" (api/index.api.md for "ctxloom", api/sqlite.api.md for
// "ctxloom/sqlite", ...), written by API Extractor from the types the build emits, and
// api/surface.md, the counts (runtime exports and types per entry point, option keys of the
// calls users make most). Any change to the published types changes a report: a reviewed diff.
//
//   node scripts/api-report.mjs            compares fresh reports with api/, prints the diff, exits 1 on any difference,
//                                          and on any fault of a report: a forgotten export or an undocumented member
//   node scripts/api-report.mjs --update   writes them to api/ (npm run api:update), and prints the faults
//   --dist DIR                             reads the .d.ts files under DIR instead of compiling them
//
// Without --dist the declarations are compiled from src/ with tsconfig.build.json (stripInternal:
// what is marked @internal never reaches them) into a temporary folder, so dist/ is not touched
// and a stale dist/ cannot mislead. test/package/api.test.ts runs the comparison in npm test. Every public
// declaration and member has JSDoc and every type a public signature names is exported: a report with a
// forgotten export or an "(undocumented)" member fails the check, each fault named (reportFaults).
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const apiDir = join(root, "api");
const UPDATE = "npm run api:update";

const require = createRequire(import.meta.url);
const { CompilerState, Extractor, ExtractorConfig } = require("@microsoft/api-extractor");
// The TypeScript API Extractor analyses with (its own pinned copy: the repository's compiler is the native one).
const ts = createRequire(require.resolve("@microsoft/api-extractor"))("typescript");

/** The entry points of package.json "exports" that carry types: name of the report, subpath, .d.ts under dist/. */
export function entryPoints(manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))) {
  const entries = [];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = typeof target === "object" && target !== null ? target.types : undefined;
    if (typeof types !== "string") continue;
    const name = subpath === "." ? "index" : subpath.slice(2).replaceAll("/", "-");
    entries.push({
      name,
      subpath,
      specifier: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
      types: types.replace(/^\.\/dist\//, ""),
    });
  }
  return entries;
}

/** Compiles the declarations of src/ into `out` (tsconfig.build.json, declarations only). */
export function compileDeclarations(out) {
  const tsc = join(root, "node_modules/.bin/tsc");
  const result = spawnSync(tsc, ["-p", "tsconfig.build.json", "--emitDeclarationOnly", "--outDir", out], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0)
    throw new Error(`tsc -p tsconfig.build.json --emitDeclarationOnly failed:\n${result.stdout}${result.stderr}`);
  // Declarations the build writes itself (the .wasm files' modules) come from dist/ as scripts/build-*.mjs wrote them.
  for (const name of readdirSync(join(root, "dist")).filter((n) => n.endsWith(".wasm.d.ts")))
    copyFileSync(join(root, "dist", name), join(out, name));
}

/** The report of every entry point and the surface's counts, written into `out`. */
function writeReports(dist, out) {
  const entries = entryPoints();
  const configs = entries.map((entry) => {
    const file = join(dist, entry.types);
    if (!existsSync(file))
      throw new Error(
        `${relative(root, file)} is missing: run npm run build (it writes the declarations of ${entry.specifier}).`,
      );
    return ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: file,
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: "ES2022",
              lib: ["ES2023", "DOM"],
              types: ["node"],
              module: "NodeNext",
              moduleResolution: "NodeNext",
              strict: true,
              skipLibCheck: true,
            },
            files: [file],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: entry.name,
          reportFolder: out,
          reportTempFolder: join(out, "temp"),
          includeForgottenExports: true,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        newlineKind: "lf",
        messages: {
          // A declaration that does not compile (a public type naming one stripInternal removed) fails the run.
          compilerMessageReporting: { default: { logLevel: "error" } },
          extractorMessageReporting: {
            default: { logLevel: "warning", addToApiReportFile: true },
            // No release tags but @internal: everything exported is public.
            "ae-missing-release-tag": { logLevel: "none", addToApiReportFile: false },
            "ae-internal-missing-underscore": { logLevel: "none", addToApiReportFile: false },
            // Undocumented members are marked "(undocumented)" in the report already; the list would tie it to .d.ts line numbers.
            "ae-undocumented": { logLevel: "none", addToApiReportFile: false },
            // A public declaration that names a type its entry does not export: shown in the report, for review.
            "ae-forgotten-export": { logLevel: "none", addToApiReportFile: true },
          },
          tsdocMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
        },
      },
      packageJsonFullPath: join(root, "package.json"),
      configObjectFullPath: undefined,
    });
  });
  const state = CompilerState.create(configs[0], {
    additionalEntryPoints: configs.map((c) => c.mainEntryPointFilePath),
  });
  const problems = [];
  for (const [i, config] of configs.entries()) {
    const result = Extractor.invoke(config, {
      compilerState: state,
      localBuild: true,
      messageCallback(message) {
        message.handled = true;
        // Console messages are its progress ("the report was created"): this script does the comparing.
        if (message.category === "console") return;
        if (message.logLevel === "error" || message.logLevel === "warning")
          problems.push(`${entries[i].specifier}: ${message.formatMessageWithLocation(root)}`);
      },
    });
    if (!result.succeeded) problems.push(`${entries[i].specifier}: API Extractor failed (${result.errorCount} errors)`);
  }
  rmSync(join(out, "temp"), { recursive: true, force: true });
  // Warnings API Extractor cannot attach to a declaration name their file: as dist/ names it, without line numbers.
  const texts = new Map(
    entries.map((entry) => {
      const text = readFileSync(join(out, `${entry.name}.api.md`), "utf8");
      return [
        entry.name,
        text
          .split(`${dist}/`)
          .join("dist/")
          .replace(/^(\/\/ dist\/\S+?\.d\.ts):\d+:\d+ - /gm, "$1 - "),
      ];
    }),
  );
  const main = texts.get("index");
  for (const entry of entries) {
    const text = texts.get(entry.name);
    writeFileSync(
      join(out, `${entry.name}.api.md`),
      entry.name === "index" || main === undefined ? text : withoutMainDeclarations(text, main),
    );
  }
  writeFileSync(join(out, "surface.md"), surfaceTable(state.program, entries, configs));
  return problems;
}

const FORGOTTEN =
  /^\s*\/\/ (?:dist\/\S+ - )?(?:Warning: )?\(ae-forgotten-export\) The symbol "([^"]+)" needs to be exported by the entry point \S+$/;

/**
 * What a report may not hold, each fault named with its report and its symbol: a forgotten export
 * (a public declaration names a type its entry point does not export, so users cannot name it)
 * and an undocumented declaration or member (marked "(undocumented)": no JSDoc). `report` is the
 * report's file name (index.api.md), `text` its content.
 */
export function reportFaults(report, text) {
  const faults = [];
  const lines = text.split("\n");
  let declaration;
  for (const [i, line] of lines.entries()) {
    const top =
      /^(?:export )?(?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|enum|namespace) (\w+)/.exec(
        line,
      );
    if (top) declaration = top[1];
    const forgotten = FORGOTTEN.exec(line);
    if (forgotten) {
      faults.push(
        `api/${report}: "${forgotten[1]}" is named by a public declaration but not exported by the entry point ` +
          "(export it from the entry, with JSDoc, or change the signature so it does not name it)",
      );
      continue;
    }
    if (!/^\s*\/\/ (?:@\w+ )?\(undocumented\)$/.test(line)) continue;
    let at = i + 1;
    while (at < lines.length && /^\s*\/\//.test(lines[at])) at++;
    const code = lines[at] ?? "";
    const own =
      /^(?:export )?(?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|enum|namespace) (\w+)/.exec(
        code,
      );
    const member = /^\s+(?:(?:readonly|static|protected|abstract|get|set) )*(\[[^\]]+\]|["']?[\w$]+["']?|\(|new)/.exec(
      code,
    );
    const name = own ? own[1] : `${declaration ?? "?"}${member ? `.${member[1] === "(" ? "(call)" : member[1]}` : ""}`;
    faults.push(`api/${report}: ${name} is undocumented (give it a JSDoc sentence saying what it is for users)`);
  }
  return faults;
}

/** A report's declarations (blocks between blank lines), and the text around them. */
function reportBlocks(text) {
  const start = text.indexOf("```ts\n\n") + "```ts\n\n".length;
  const end = text.lastIndexOf("\n```");
  return { head: text.slice(0, start), blocks: text.slice(start, end).split("\n\n"), tail: text.slice(end) };
}

/** A declaration as written, without its comments and `export`: the same declaration reads the same in every report. */
function declarationKey(block) {
  const code = block.split("\n").filter((line) => !/^\s*\/\//.test(line));
  return code.join("\n").replace(/^export /, "");
}

/**
 * A sub-entry's report without the main entry's declarations: API Extractor lists in full every
 * declaration an entry's names lead to (its "forgotten exports"), so each adapter's report would
 * repeat Chat, Message, BuildOptions... The main report (api/index.api.md) holds them; a
 * sub-entry's report keeps its own declarations and those the main report lacks.
 */
function withoutMainDeclarations(text, main) {
  const declared = new Set(reportBlocks(main).blocks.map(declarationKey));
  const names = new Set();
  for (const key of declared) {
    const m = /^(?:declare )?(?:abstract )?(?:class|interface|type|function|const|enum|namespace) (\w+)/.exec(key);
    if (m) names.add(m[1]);
  }
  const { head, blocks, tail } = reportBlocks(text);
  const kept = [];
  for (const block of blocks) {
    const key = declarationKey(block);
    if (!block.split("\n").some((l) => l.startsWith("export ")) && key !== "" && declared.has(key)) continue;
    // Warnings that name a declaration of the main entry are about it, not this entry.
    const lines = block.split("\n").filter((line) => !(FORGOTTEN.exec(line) && names.has(FORGOTTEN.exec(line)[1])));
    const tidy = lines.filter((line, i) => !(/^\s*\/\/$/.test(line) && (i === 0 || !/^\s*\/\/ /.test(lines[i - 1]))));
    if (tidy.every((line) => line === "// Warnings were encountered during analysis:" || line === "//")) continue;
    if (tidy.length > 0) kept.push(tidy.join("\n"));
  }
  const note = "Names used here and declared by the main entry are in [index.api.md](./index.api.md).\n\n";
  return head.replace("```ts\n", `${note}\`\`\`ts\n`) + kept.join("\n\n") + tail;
}

/** Counts of the surface: per entry point, its runtime exports and its type-only exports; the option keys of the main calls. */
function surfaceTable(program, entries, configs) {
  const checker = program.getTypeChecker();
  const rows = [];
  const exportsOf = new Map();
  for (const [i, entry] of entries.entries()) {
    const source = program.getSourceFile(configs[i].mainEntryPointFilePath);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const symbols = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    let runtime = 0;
    for (const symbol of symbols) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      if (!checker.getTypeOnlyAliasDeclaration(symbol) && target.flags & ts.SymbolFlags.Value) runtime++;
    }
    exportsOf.set(entry.name, new Map(symbols.map((s) => [s.name, s])));
    rows.push(`| \`${entry.specifier}\` | ${runtime} | ${symbols.length - runtime} |`);
  }
  const main = exportsOf.get("index") ?? new Map();
  /** Option keys of `member`'s options parameter, on the instance (or static) side of an exported class. */
  const optionKeys = (className, member, isStatic) => {
    const symbol = main.get(className);
    if (!symbol) return "not exported";
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const side = isStatic ? checker.getTypeOfSymbol(target) : checker.getDeclaredTypeOfSymbol(target);
    const method = side.getProperty(member);
    const signature = method && checker.getTypeOfSymbol(method).getCallSignatures()[0];
    const param = signature?.parameters.find((p) => p.name === "options");
    if (!param) return "no options";
    let type = checker.getTypeOfSymbol(param);
    if (type.flags & ts.TypeFlags.TypeParameter) type = checker.getBaseConstraintOfType(type) ?? type;
    return String(checker.getPropertiesOfType(checker.getNonNullableType(type)).length);
  };
  return [
    "<!-- Written by scripts/api-report.mjs (npm run api:update); do not edit. -->",
    "# The public surface, counted",
    "",
    "| entry point | runtime exports | type exports |",
    "|---|---:|---:|",
    ...rows,
    "",
    "| call | option keys |",
    "|---|---:|",
    `| \`Loom.open(options)\` | ${optionKeys("Loom", "open", true)} |`,
    `| \`chats.create(options)\` | ${optionKeys("UserChats", "create", false)} |`,
    `| \`chat.buildContext(options)\` | ${optionKeys("Chat", "buildContext", false)} |`,
    "",
  ].join("\n");
}

function reportFiles(dir) {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => n.endsWith(".api.md") || n === "surface.md")
        .sort()
    : [];
}

/**
 * Writes the reports of the declarations under `dist` (compiled from src/ when left out) and
 * compares them with those in `api` (api/ by default), or with `update` writes them there.
 * Returns whether they matched (or were written) and what to print.
 */
export function apiReport({ dist, update = false, api = apiDir } = {}) {
  const work = mkdtempSync(join(tmpdir(), "ctxloom-api-"));
  try {
    if (dist === undefined) {
      dist = join(work, "dist");
      compileDeclarations(dist);
    }
    const out = join(work, "api");
    mkdirSync(out);
    const problems = writeReports(resolve(dist), out);
    if (problems.length > 0)
      return { ok: false, text: `API Extractor reported problems in the built types:\n${problems.join("\n")}` };
    const fresh = reportFiles(out);
    const faults = fresh
      .filter((name) => name.endsWith(".api.md"))
      .flatMap((name) => reportFaults(name, readFileSync(join(out, name), "utf8")));
    const faultText =
      faults.length === 0
        ? ""
        : `\n\n${faults.length} faults in the public API (npm run api:check fails on each):\n${faults.join("\n")}`;
    if (update) {
      mkdirSync(api, { recursive: true });
      for (const name of reportFiles(api)) if (!fresh.includes(name)) rmSync(join(api, name));
      for (const name of fresh) copyFileSync(join(out, name), join(api, name));
      return {
        ok: true,
        text: `${relative(root, api) || api}/: ${fresh.length} files written (${fresh.join(", ")})${faultText}`,
      };
    }
    const differences = [];
    for (const name of [...new Set([...reportFiles(api), ...fresh])].sort()) {
      const before = join(api, name);
      const after = join(out, name);
      if (!existsSync(after)) differences.push(`api/${name}: no such entry point any more (the file should go)`);
      else if (!existsSync(before))
        differences.push(`api/${name}: a new entry point, not in api/ yet\n${readFileSync(after, "utf8")}`);
      else if (readFileSync(before, "utf8") !== readFileSync(after, "utf8")) {
        const labels = ["--label", `api/${name} (checked in)`, "--label", `api/${name} (from the build)`];
        const diff = spawnSync("diff", ["-u", ...labels, before, after], { encoding: "utf8" });
        differences.push(diff.stdout || `api/${name} differs`);
      }
    }
    if (differences.length > 0) {
      return {
        ok: false,
        text:
          `The public API differs from the reports checked in under api/:\n\n${differences.join("\n")}\n` +
          `If the change is meant, accept it with \`${UPDATE}\` and commit api/ with it (reviewers read that diff).${faultText}`,
      };
    }
    if (faults.length > 0)
      return {
        ok: false,
        text: `api/: the public API matches the ${fresh.length} reports checked in, but:${faultText}`,
      };
    return {
      ok: true,
      text: `api/: the public API matches the ${fresh.length} reports checked in, with no forgotten export and no undocumented member.`,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const at = argv.indexOf("--dist");
  try {
    const { ok, text } = apiReport({ update: argv.includes("--update"), dist: at >= 0 ? argv[at + 1] : undefined });
    (ok ? console.log : console.error)(text);
    process.exitCode = ok ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
