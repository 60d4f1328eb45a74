#!/usr/bin/env node
// The `ctxloom` command (run `ctxloom --help`).
import { readFileSync } from "node:fs";
import { demo } from "./demo.js";
import { run } from "./run.js";
import { openStore } from "./store.js";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };

process.exitCode = await run(process.argv.slice(2), {
  out: (text) => void process.stdout.write(text + "\n"),
  err: (text) => void process.stderr.write(text.startsWith("\r") ? text : text + "\n"),
  progress: process.stderr.isTTY === true,
  openStore: (db) => openStore(db, (text) => process.stderr.write(text + "\n")),
  version: pkg.version,
  demo,
});
