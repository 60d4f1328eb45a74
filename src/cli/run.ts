// The `ctxloom` command: arguments, dispatch, errors and exit codes. Everything it does to the
// outside goes through a CliIO, so tests run it in process with a store of their choosing.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closest } from "../errors.js";
import { Loom } from "../chat/loom.js";
import { COMMANDS, modelsCommand } from "./commands.js";
import type { CliIO } from "./io.js";
import { HELP, typed, valueOf } from "./help.js";

type Options = NonNullable<ParseArgsConfig["options"]>;
const COMMON: Options = {
  db: { type: "string", default: "./ctxloom.db" },
  user: { type: "string", default: "local" },
  json: { type: "boolean", default: false },
  help: { type: "boolean", short: "h", default: false },
};
/** Each command's own options and its positional arguments: [required, most]. */
const SPECS: Record<string, { options: Options; positionals: [number, number] }> = {
  import: {
    options: {
      format: { type: "string", default: "auto" },
      model: { type: "string" },
      copy: { type: "boolean", default: false },
    },
    positionals: [1, Infinity],
  },
  chats: { options: {}, positionals: [0, 0] },
  tree: { options: {}, positionals: [1, 1] },
  show: { options: { at: { type: "string" } }, positionals: [1, 1] },
  checkout: { options: {}, positionals: [2, 2] },
  context: {
    options: {
      model: { type: "string" },
      "context-window": { type: "string" },
      system: { type: "string" },
      memory: { type: "string" },
      input: { type: "string" },
      format: { type: "string", default: "openai" },
    },
    positionals: [1, 1],
  },
  stats: { options: {}, positionals: [1, 1] },
  summarize: {
    options: { "keep-last": { type: "string" }, model: { type: "string" }, "context-window": { type: "string" } },
    positionals: [1, 1],
  },
  recall: {
    options: { scope: { type: "string", default: "chat" }, prompts: { type: "string" }, recent: { type: "string" } },
    positionals: [2, Infinity],
  },
  export: { options: { format: { type: "string", default: "json" } }, positionals: [1, 1] },
  models: { options: {}, positionals: [0, 1] },
  // No default user: the one to erase is named.
  erase: { options: { user: { type: "string" } }, positionals: [0, 0] },
  prune: {
    options: {
      "idle-for": { type: "string" },
      "keep-newest": { type: "string" },
      "batch-size": { type: "string" },
      vacuum: { type: "boolean", default: false },
    },
    positionals: [0, 0],
  },
  demo: { options: { engine: { type: "string" } }, positionals: [0, 0] },
};

export type { CliIO } from "./io.js";

/** A usage mistake (exit 2), as opposed to bad input (exit 1). */
class UsageError extends Error {}

/** Runs the command line `argv` (without node and the script); returns the exit code. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.err(HELP[""]!);
    return 2;
  }
  if (first === "--version" || first === "-v") return (io.out(io.version), 0);
  if (first === "--help" || first === "-h" || first === "help") return (io.out(HELP[rest[0] ?? ""] ?? HELP[""]!), 0);
  try {
    const spec = SPECS[first];
    if (!spec) {
      const hint = closest(first, Object.keys(SPECS));
      throw new UsageError(
        `unknown command ${JSON.stringify(first)}${hint ? `; did you mean ${hint}?` : "."} Run ctxloom --help for ` +
          `the commands.`,
      );
    }
    const options = { ...COMMON, ...spec.options };
    const { values, positionals } = parse(first, rest, options);
    if (values.help) return (io.out(HELP[first]!), 0);
    const [least, most] = spec.positionals;
    if (positionals.length < least || positionals.length > most) {
      throw new UsageError(
        `${first} takes ${least === most ? least : most === Infinity ? `${least} or more` : `${least} to ${most}`} ` +
          `argument(s); got ${positionals.length}.\n${HELP[first]!.split("\n")[0]}`,
      );
    }
    if (first === "demo") {
      const engine = values.engine as string | undefined;
      if (engine !== undefined && engine !== "wasm" && engine !== "js")
        throw new UsageError(`--engine takes wasm or js; got ${typed(engine)}.`);
      await (io.demo ?? (async () => {}))(engine as "wasm" | "js" | undefined, values.json === true);
      return 0;
    }
    const usage = (text: string) => new UsageError(text);
    if (first === "models") return (await modelsCommand({ io, values, positionals, usage }), 0);
    const store = await io.openStore(values.db as string);
    const loom = await Loom.open({ store });
    try {
      await COMMANDS[first]!({ io, values, positionals, store, usage }, loom);
    } finally {
      await loom.close();
    }
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`ctxloom: ${e.message}`);
      return 2;
    }
    io.err(`ctxloom: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

/**
 * The arguments as parseArgs reads them: the word after an option that takes a value is its
 * value, even when it starts with "-" (`--at -1`, `--input "-5 degrees"`), so that the value
 * is checked and refused by name; other words that are negative numbers are positionals. An
 * option without its value (last, or followed by another option of the command) is refused.
 */
function attachValues(command: string, args: string[], options: Options): string[] {
  const flags: string[] = [];
  const words: string[] = [];
  const isOption = (word: string) =>
    word === "-h" || (word.startsWith("--") && word.slice(2).split("=")[0]! in options);
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") {
      words.push(...args.slice(i + 1));
      break;
    }
    const name = word.startsWith("--") && !word.includes("=") ? word.slice(2) : "";
    if (options[name]?.type === "string") {
      const next = args[i + 1];
      if (next === undefined || isOption(next)) {
        throw new UsageError(
          `${word} takes ${valueOf(command, name)}; got nothing${next === undefined ? "" : ` (${next} is an option)`}.`,
        );
      }
      flags.push(`${word}=${next}`);
      i++;
    } else if (word.startsWith("-") && word !== "-" && !/^-\d/.test(word)) flags.push(word);
    else words.push(word);
  }
  return [...flags, "--", ...words];
}

function parse(
  command: string,
  args: string[],
  options: Options,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: attachValues(command, args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (e) {
    const code = (e as { code?: string }).code ?? "";
    if (!code.startsWith("ERR_PARSE_ARGS")) throw e;
    const bad = /'(-{1,2}[^' =]+)/.exec((e as Error).message)?.[1];
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && bad) {
      const hint = closest(bad.replace(/^-+/, ""), Object.keys(options));
      throw new UsageError(
        `unknown option ${bad}${hint ? `; did you mean --${hint}?` : "."} Run with --help for the options.`,
      );
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && bad && options[bad.slice(2)]?.type === "boolean") {
      throw new UsageError(`${bad} takes no value; got ${typed(args.find((a) => a.startsWith(`${bad}=`)) ?? bad)}.`);
    }
    throw new UsageError(`${(e as Error).message.split("\n")[0]!.replace(/[.!?]*$/, "")}.`);
  }
}
