// Converts public agent runs into the agent suite's one format (bench/agent-trajectories.ts), so
// that bench/agent.bench.ts reads a small gzip JSONL at run time and nothing else:
//
//   node --import ./bench/ts-loader.mjs bench/agent-convert.ts \
//     --swe <folder of mini-swe-agent *.traj.json> --tau <tau-bench historical_trajectories/*.json> --out <folder>
//
// It writes <folder>/trajectories.jsonl.gz. The selection is fixed so that a rerun on the same
// inputs writes the same file:
// - SWE-bench: the 500 runs sorted by their characters, 45 picked at evenly spaced ranks (the
//   shortest, the longest and 43 between): the spread of lengths the whole run has.
// - tau-bench: trial 0, the 15 tasks with the most tool results (ties: lower task id first).
// Sources (both MIT): the SWE-bench Verified runs of mini-swe-agent 1.15 with Gemini 3 Pro
// Preview (2025-11-18) as kept in gruckion/mini-swe-agent, swebench_results/20251118_gemini-3-pro-
// 74pct/trajs/; and sierra-research/tau-bench, historical_trajectories/gpt-4o-airline.json. The
// NOTICE.md that goes with the data file names them fully, with what this conversion changes.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { AgentMessage, Trajectory } from "./agent-trajectories.js";

const SWE_COUNT = 45;
const TAU_COUNT = 15;
/** mini-swe-agent 1.x's own rule: an action is the one ```bash block of the reply. */
const ACTION = /```bash\s*\n(.*?)\n```/gs;

interface MiniMessage {
  role: string;
  content: string;
}

/** One mini-swe-agent 1.x run: a reply with exactly one bash block becomes a `bash` call, the next message its result. */
export function fromMiniSweAgent(id: string, messages: readonly MiniMessage[], model: string): Trajectory {
  const steps: AgentMessage[] = [];
  let calls = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (typeof m.content !== "string") throw new Error(`${id}: message ${i} has no text content`);
    if (m.role !== "assistant") {
      steps.push({ role: m.role === "system" ? "system" : "user", content: m.content });
      continue;
    }
    const actions = [...m.content.matchAll(ACTION)];
    if (actions.length !== 1) {
      steps.push({ role: "assistant", content: m.content }); // a format error: the next message tells it so
      continue;
    }
    const callId = `call_${++calls}`;
    const text = m.content.replace(actions[0]![0], "").trim();
    const command = actions[0]![1]!;
    steps.push({
      role: "assistant",
      content: text,
      toolCalls: [{ id: callId, name: "bash", arguments: JSON.stringify({ command }) }],
    });
    const next = messages[i + 1];
    if (next && next.role === "user") {
      steps.push({ role: "tool", content: next.content, toolCallId: callId, name: "bash" });
      i++;
    }
  }
  return { id, source: "mini-swe-agent", model, steps };
}

interface TauMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

/** One tau-bench run (OpenAI chat format): kept as it is, content null read as "", call ids as recorded. */
export function fromTauBench(id: string, traj: readonly TauMessage[], model: string): Trajectory {
  const steps = traj.map((m): AgentMessage => {
    const content = m.content ?? "";
    if (m.role === "tool")
      return { role: "tool", content, toolCallId: m.tool_call_id!, ...(m.name ? { name: m.name } : {}) };
    if (m.role === "assistant" && m.tool_calls?.length) {
      const toolCalls = m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments }));
      return { role: "assistant", content, toolCalls };
    }
    if (m.role !== "system" && m.role !== "user" && m.role !== "assistant")
      throw new Error(`${id}: unknown role ${m.role}`);
    return { role: m.role, content };
  });
  return { id, source: "tau-bench", model, steps };
}

function chars(messages: readonly MiniMessage[]): number {
  return messages.reduce((n, m) => n + m.content.length, 0);
}

function sweRuns(folder: string): Trajectory[] {
  const runs = readdirSync(folder)
    .filter((f) => f.endsWith(".traj.json"))
    .sort()
    .map((f) => {
      const raw = JSON.parse(readFileSync(join(folder, f), "utf8")) as {
        instance_id?: string;
        messages: MiniMessage[];
      };
      return {
        name: raw.instance_id ?? f.replace(/\.traj\.json$/, ""),
        messages: raw.messages,
        size: chars(raw.messages),
      };
    });
  if (runs.length < SWE_COUNT) throw new Error(`${folder}: ${runs.length} runs, need ${SWE_COUNT}`);
  runs.sort((a, b) => a.size - b.size || (a.name < b.name ? -1 : 1));
  const picked = Array.from(
    { length: SWE_COUNT },
    (_, i) => runs[Math.round((i * (runs.length - 1)) / (SWE_COUNT - 1))]!,
  );
  return picked.map((r) => fromMiniSweAgent(`swe/${r.name}`, r.messages, "gemini-3-pro-preview"));
}

function tauRuns(file: string): Trajectory[] {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { task_id: number; trial: number; traj: TauMessage[] }[];
  const domain = /retail/.test(file) ? "retail" : "airline";
  const tools = (r: { traj: TauMessage[] }) => r.traj.filter((m) => m.role === "tool").length;
  const picked = raw
    .filter((r) => r.trial === 0)
    .sort((a, b) => tools(b) - tools(a) || a.task_id - b.task_id)
    .slice(0, TAU_COUNT);
  return picked.map((r) => fromTauBench(`tau/${domain}-${r.task_id}`, r.traj, "gpt-4o"));
}

function arg(name: string): string {
  const at = process.argv.indexOf(name);
  if (at < 0 || !process.argv[at + 1])
    throw new Error(`usage: agent-convert.ts --swe <folder> --tau <file> --out <folder> (missing ${name})`);
  return process.argv[at + 1]!;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const all = [...sweRuns(arg("--swe")), ...tauRuns(arg("--tau"))];
  const jsonl = all.map((t) => JSON.stringify(t)).join("\n") + "\n";
  const out = join(arg("--out"), "trajectories.jsonl.gz");
  writeFileSync(out, gzipSync(jsonl, { level: 9 }));
  console.log(`${all.length} trajectories, ${jsonl.length.toLocaleString("en")} characters, written to ${out}`);
}
