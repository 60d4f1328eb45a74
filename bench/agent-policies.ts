// The agent suite's policies: what each one sends at every step of a trajectory.
//
// A policy is one function per trajectory, (messages so far, step) => messages sent, made by
// `start` (so a policy may keep state across the steps of one trajectory). `step` counts the
// assistant replies before this request (0 for the first). The history passed in is the
// trajectory's own messages, never changed; a policy returns a new list and must not edit the
// messages it got (the measures compare requests by message).

import { Loom, type MessageInput, type OpenAIMessage } from "../src/index.js";
import { INPUT_LIMIT, estimate, requestTokens } from "./agent-measure.js";
import type { AgentMessage, Trajectory } from "./agent-trajectories.js";

export type SendFn = (history: readonly AgentMessage[], step: number) => AgentMessage[] | Promise<AgentMessage[]>;

export interface Policy {
  name: string;
  /** A fresh run of the policy for one trajectory. */
  start(trajectory: Trajectory): SendFn | Promise<SendFn>;
}

/** Thrown by a policy that is not built yet: the suite prints the reason and leaves its row out of the figures. */
export class PolicyPending extends Error {
  override name = "PolicyPending";
}

/** The placeholder the re-implemented clearing rows put where an output was (LangChain's own default text). */
export const PLACEHOLDER = "[cleared]";

/** Indices of the tool results older than the newest `keep` ones. */
export function olderOutputs(history: readonly AgentMessage[], keep: number): number[] {
  const tools: number[] = [];
  history.forEach((m, i) => m.role === "tool" && tools.push(i));
  return tools.slice(0, Math.max(0, tools.length - keep));
}

function cleared(m: AgentMessage): AgentMessage {
  return { role: "tool", content: PLACEHOLDER, toolCallId: m.toolCallId!, ...(m.name ? { name: m.name } : {}) };
}

/** (a) Everything, every time. */
export const noManagement: Policy = {
  name: "no management",
  start: () => (history) => [...history],
};

/**
 * (b) A sliding window of a 128k model: the oldest whole units go first until the request fits
 * the window less the output reserve. A unit is an assistant message with the results of its
 * calls, or any other message alone. The system prompt and the first user message (the task)
 * stay, and so does the newest unit (a request cannot go without what it answers).
 */
export const slidingWindow: Policy = {
  name: "sliding window (128k, whole units)",
  start: () => (history) => {
    const units: AgentMessage[][] = [];
    for (const m of history) {
      if (m.role === "tool" && units.length > 0 && units[units.length - 1]![0]!.role === "assistant")
        units[units.length - 1]!.push(m);
      else units.push([m]);
    }
    const firstUser = units.findIndex((u) => u[0]!.role === "user");
    const pinned = (i: number) => units[i]![0]!.role === "system" || i === firstUser || i === units.length - 1;
    let total = requestTokens(history);
    const dropped = new Set<number>();
    for (let i = 0; i < units.length && total > INPUT_LIMIT; i++) {
      if (pinned(i)) continue;
      dropped.add(i);
      total -= requestTokens(units[i]!);
    }
    return units.filter((_, i) => !dropped.has(i)).flat();
  },
};

export interface ClearingRules {
  /** Clearing applies when the request (all of it, before clearing) is over this many tokens. */
  trigger: number;
  /** The newest tool uses kept whole. */
  keep: number;
  /** Nothing is cleared unless clearing saves at least this many tokens. */
  clearAtLeast: number;
}

/**
 * (c) Anthropic's clear_tool_uses_20250919, re-implemented from its documentation: applied by
 * the server to each request on its own (the client sends the whole history every time), so
 * once a request is over `trigger` input tokens, every tool result but those of the newest
 * `keep` tool uses becomes a placeholder, oldest first, unless that clears fewer than
 * `clearAtLeast` tokens, in which case nothing is cleared. Tool inputs stay (clear_tool_inputs
 * false) and no tool is excluded. With trigger 0 and clearAtLeast 0 it is (e): keep the newest,
 * clear the rest at every step.
 */
export function statelessClearing(name: string, rules: ClearingRules): Policy {
  return {
    name,
    start: () => (history) => {
      if (requestTokens(history) <= rules.trigger) return [...history];
      const old = olderOutputs(history, rules.keep);
      const saved = old.reduce((n, i) => n + estimate(history[i]!) - estimate(cleared(history[i]!)), 0);
      if (old.length === 0 || saved < rules.clearAtLeast) return [...history];
      const clear = new Set(old);
      return history.map((m, i) => (clear.has(i) ? cleared(m) : m));
    },
  };
}

/**
 * (f) Clearing in batches: nothing changes until the outputs older than the newest `keep` that
 * are still whole add up to `batch` tokens; then all of them are cleared at once, and they stay
 * cleared in every later request (the policy remembers them), so the prefix before the newest
 * clearing is the same from one request to the next.
 */
export function batchClearing(name: string, keep: number, batch: number): Policy {
  return {
    name,
    start: () => {
      const done = new Map<number, AgentMessage>(); // history index -> its placeholder, made once
      return (history) => {
        const old = olderOutputs(history, keep).filter((i) => !done.has(i));
        const saved = old.reduce((n, i) => n + estimate(history[i]!), 0);
        if (saved >= batch) for (const i of old) done.set(i, cleared(history[i]!));
        return history.map((m, i) => done.get(i) ?? m);
      };
    },
  };
}

/**
 * (g) ctxloom's defaults for agents: a chat of a 128k model (gpt-4o's profile, counted exactly
 * with o200k) with `toolResults: { clear: true }`, the setting the agent loops turn on (keep the
 * newest 3 whole, clear the rest in batches of at least 2,000 tokens; results past a quarter of
 * the request sent cut). At each step the messages the history added since the previous step are
 * appended as they were recorded (reused call ids, empty outputs), and the request is
 * buildContext()'s messages, read back as the suite's messages.
 */
export const ctxloomAgents: Policy = {
  name: "ctxloom defaults for agents (toolResults: { clear: true })",
  start: async (trajectory) => {
    const tune = process.env.CTXLOOM_AGENT_TUNE ? JSON.parse(process.env.CTXLOOM_AGENT_TUNE) : true;
    const loom = await Loom.open({ toolResults: { clear: tune }, recall: false });
    const first = trajectory.steps[0];
    const system = first?.role === "system" ? first.content : undefined;
    const chat = await loom.user("bench").create({ model: "gpt-4o", ...(system !== undefined ? { system } : {}) });
    let seen = system !== undefined ? 1 : 0;
    return async (history) => {
      for (; seen < history.length; seen++) await chat.append(toInput(history[seen]!));
      const ctx = await chat.buildContext({ format: "openai" });
      if (history.length === trajectory.steps.length - 1) void loom.close(); // (the run's last request)
      return ctx.messages.map(fromOpenAI);
    };
  },
};

function toInput(m: AgentMessage): MessageInput {
  if (m.role === "tool") return { role: "tool", toolCallId: m.toolCallId!, content: m.content };
  if (m.role === "assistant" && m.toolCalls?.length) {
    return {
      role: "assistant",
      content: m.content,
      toolCalls: m.toolCalls.map((c) => ({
        id: c.id,
        type: "function",
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

function fromOpenAI(m: OpenAIMessage): AgentMessage {
  const content =
    typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");
  if (m.role === "tool") return { role: "tool", content, toolCallId: m.tool_call_id };
  if (m.role === "assistant" && m.tool_calls) {
    return {
      role: "assistant",
      content,
      toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
    };
  }
  return { role: m.role, content };
}
