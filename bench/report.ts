// What every suite returns, and the small helpers they share (machine, commit, tables).
//
// A suite is a file bench/<name>.bench.ts exporting a function named run<Name>Suite (or a
// default export) that takes { smoke } and resolves to a SuiteReport. `npm run bench` runs
// each suite in a process of its own (bench/suite.ts), `npm run bench:smoke` at a tiny size.

import { execFileSync } from "node:child_process";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Task } from "tinybench";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** For `node --import <TS_LOADER> file.ts`: how every bench process runs TypeScript (see ts-hooks.mjs). */
export const TS_LOADER = pathToFileURL(join(ROOT, "bench/ts-loader.mjs")).href;

export interface SuiteOptions {
  /** A tiny size that proves the suite works (CI): figures mean nothing. */
  smoke: boolean;
}

export interface Goal {
  goal: string;
  target: string;
  measured: string;
  pass: boolean;
}

/** A table for docs/benchmarks.md: header and rows as display strings (scripts/bench-table.mjs renders it). */
export interface ReadmeTable {
  title: string;
  columns: string[];
  rows: string[][];
  note?: string;
  /** The group of docs/benchmarks.md it goes in (scripts/bench-table.mjs); without it, the script places it by suite and title. */
  comparison?: "engines" | "counters" | "mixed" | "other";
}

/** One point of the scale chart (bench/scale.svg): a figure against history size, per configuration. */
export interface ScalePoint {
  series: "build" | "memory";
  config: "wasm" | "js";
  messages: number;
  value: number;
}

export interface SuiteReport {
  name: string;
  tables: { title: string; rows: Record<string, string | number>[] }[];
  goals: Goal[];
  markdown: string;
  readme?: ReadmeTable[];
  scale?: ScalePoint[];
  results?: unknown;
}

export interface Machine {
  cpu: string;
  nproc: number;
  node: string;
  commit: string;
  date: string;
  /** The 1-minute load average when the figures were taken (other processes share the machine). */
  load: number;
}

export function machine(): Machine {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    nproc: os.availableParallelism(),
    node: process.version,
    commit: gitCommit(),
    date: new Date().toISOString().slice(0, 10),
    load: Math.round(os.loadavg()[0]! * 10) / 10,
  };
}

/** The commit the figures were taken at, marked when src/ or assembly/ differ from it; "" outside git. */
export function gitCommit(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const sha = git("rev-parse", "--short", "HEAD");
    return git("status", "--porcelain", "--", "src", "assembly") ? `${sha} (src/ or assembly/ modified)` : sha;
  } catch {
    return "";
  }
}

/** Median, mean and samples of a finished tinybench task, in ms. */
export function latency(task: Task): { p50: number; mean: number; samples: number } {
  const r = task.result;
  if (r.state !== "completed" && r.state !== "aborted-with-statistics") {
    throw new Error(`benchmark task ${task.name} did not complete (${r.state})`);
  }
  return { p50: r.latency.p50, mean: r.latency.mean, samples: r.latency.samplesCount };
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error("run with node --expose-gc (npm run bench does)");
  collect();
  collect();
}

/** A markdown table from rows of equal keys. */
export function mdTable(rows: Record<string, string | number>[]): string {
  const keys = Object.keys(rows[0] ?? {});
  return [
    `| ${keys.join(" | ")} |`,
    `|${keys.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${keys.map((k) => r[k]).join(" | ")} |`),
  ].join("\n");
}

export const log = (line: string): void => void process.stderr.write(`  ${line}\n`);

/** A figure with about three significant digits: 0.0734, 7.34, 73.4, 734, 7,340. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x >= 1000) return Math.round(x).toLocaleString("en");
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  return x.toPrecision(3);
}

export const ratio = (x: number): string => `${x >= 10 ? Math.round(x).toLocaleString("en") : x.toFixed(1)}x`;
export const count = (n: number): string => n.toLocaleString("en");
