// The agent suite's data: public agent runs with their tool calls and outputs, in one format,
// read at run time from trajectories.jsonl.gz (one trajectory a line) in the first folder of:
//   $CTXLOOM_AGENT_DATA, then ../shared/data/agent (beside the checkout, like the other real data)
// bench/agent-convert.ts writes that file from the public runs; the NOTICE beside it names the
// sources, their licences and what the conversion changed. Without the file the suite runs on
// generated trajectories and says so (a fresh clone has no such folder).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ROOT } from "./report.js";

export type AgentRole = "system" | "user" | "assistant" | "tool";

export interface AgentToolCall {
  /** As recorded: some runs reuse an id on later steps (a real case, kept). */
  id: string;
  name: string;
  /** The arguments as the model wrote them (a JSON text). */
  arguments: string;
}

export interface AgentMessage {
  role: AgentRole;
  content: string;
  toolCalls?: AgentToolCall[];
  /** On a tool message: the call it answers. */
  toolCallId?: string;
  /** On a tool message: the tool's name, where the run recorded it. */
  name?: string;
}

export interface Trajectory {
  id: string;
  /** "mini-swe-agent", "tau-bench" or "generated". */
  source: string;
  model: string;
  steps: AgentMessage[];
}

export interface LoadedTrajectories {
  trajectories: Trajectory[];
  /** Where they came from: the file read, or why generated ones stand in. */
  origin: string;
  public: boolean;
}

const FILE = "trajectories.jsonl.gz";

export function agentDataFolder(): string | undefined {
  const folders = [process.env.CTXLOOM_AGENT_DATA, join(ROOT, "../shared/data/agent")].filter((f): f is string => !!f);
  return folders.find((f) => existsSync(join(f, FILE)));
}

/** The trajectories (in smoke mode two of them: a median SWE-bench run and a customer-service run). */
export function loadTrajectories(smoke: boolean): LoadedTrajectories {
  const folder = agentDataFolder();
  if (!folder) {
    const trajectories = generatedTrajectories(smoke ? 2 : 8);
    const origin = `generated (${FILE} not found in $CTXLOOM_AGENT_DATA nor ../shared/data/agent)`;
    process.stderr.write(`  agent suite: ${origin}; the figures say nothing about real runs\n`);
    return { trajectories, origin, public: false };
  }
  const file = join(folder, FILE);
  const lines = gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim());
  const all = lines.map((l, i) => checkTrajectory(JSON.parse(l), `${file} line ${i + 1}`));
  if (!smoke) return { trajectories: all, origin: file, public: true };
  const swe = all.filter((t) => t.source === "mini-swe-agent");
  const pick = [swe[Math.floor(swe.length / 2)], all.find((t) => t.source === "tau-bench")].filter(
    (t): t is Trajectory => !!t,
  );
  return { trajectories: pick, origin: `${file} (smoke: ${pick.map((t) => t.id).join(", ")})`, public: true };
}

/** Refuses a line that is not a trajectory of the format above, saying where. */
function checkTrajectory(t: unknown, where: string): Trajectory {
  const bad = (what: string): never => {
    throw new Error(`${where}: ${what}`);
  };
  if (!t || typeof t !== "object") bad("not an object");
  const { id, source, model, steps } = t as Trajectory;
  if (typeof id !== "string" || typeof source !== "string" || typeof model !== "string")
    bad("id, source and model must be strings");
  if (!Array.isArray(steps) || steps.length === 0) bad("steps must be a non-empty array");
  steps.forEach((m, i) => {
    if (!["system", "user", "assistant", "tool"].includes(m.role)) bad(`steps[${i}].role is ${String(m.role)}`);
    if (typeof m.content !== "string") bad(`steps[${i}].content is not a string`);
    if (m.role === "tool" && typeof m.toolCallId !== "string") bad(`steps[${i}] is a tool result without toolCallId`);
    for (const c of m.toolCalls ?? []) {
      if (typeof c.id !== "string" || typeof c.name !== "string" || typeof c.arguments !== "string")
        bad(`steps[${i}] has a malformed call`);
    }
  });
  return t as Trajectory;
}

/**
 * Stand-ins when the public data is absent, made the same way on every run: coding runs with
 * outputs of a few hundred to 12k characters, and customer-service runs that reuse call ids
 * and have empty results, as the public ones do.
 */
export function generatedTrajectories(count: number): Trajectory[] {
  let state = 20_251_118;
  const next = (n: number) => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state % n;
  };
  const text = (n: number) =>
    Array.from({ length: Math.ceil(n / 48) }, (_, i) => `line ${i}: value ${next(1e6)} of a generated output`)
      .join("\n")
      .slice(0, n);
  return Array.from({ length: count }, (_, t) => {
    const coding = t % 2 === 0;
    const steps: AgentMessage[] = [
      { role: "system", content: text(coding ? 1_500 : 6_000) },
      { role: "user", content: text(coding ? 3_000 : 300) },
    ];
    const turns = coding ? 20 + next(40) : 6 + next(10);
    for (let s = 0; s < turns; s++) {
      const id = coding ? `call_${s + 1}` : `call_${next(3)}`; // customer-service ids repeat
      const name = coding ? "bash" : "lookup";
      steps.push({
        role: "assistant",
        content: text(100 + next(400)),
        toolCalls: [{ id, name, arguments: JSON.stringify({ q: s }) }],
      });
      const size = coding ? 200 + next(12_000) : next(4) === 0 ? 0 : 200 + next(2_000);
      steps.push({ role: "tool", content: text(size), toolCallId: id, name });
      if (!coding && next(3) === 0)
        steps.push({ role: "assistant", content: text(200) }, { role: "user", content: text(120) });
    }
    steps.push({ role: "assistant", content: "done" });
    return { id: `generated/${coding ? "coding" : "service"}-${t}`, source: "generated", model: "none", steps };
  });
}
