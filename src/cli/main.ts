#!/usr/bin/env node
// The `ctxloom` command (run `ctxloom --help`).
import { readFileSync } from "node:fs";
import { demo } from "./demo.js";
import { run } from "./run.js";
import { openStore } from "./store.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

// A reader that stops early (`ctxloom export <chat> | head -1`) closes the pipe: the rest of
// the output has nowhere to go, which is no failure (as with `git log | head`). Any other
// failure to write is said in one line, never with a stack.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0);
  process.stderr.write(`ctxloom: cannot write the output: ${e.message}\n`);
  process.exit(1);
});
// Nothing more can be said on a closed stderr; the exit code still tells.
process.stderr.on("error", () => {});

process.exitCode = await run(process.argv.slice(2), {
  out: (text) => void process.stdout.write(text + "\n"),
  err: (text) => void process.stderr.write(text.startsWith("\r") ? text : text + "\n"),
  progress: process.stderr.isTTY === true,
  openStore: (db) => openStore(db, (text) => process.stderr.write(text + "\n")),
  version: pkg.version,
  demo,
});
