// (d) LangChain v1's contextEditingMiddleware + ClearToolUsesEdit, run for real: each
// trajectory is replayed through `createAgent` (a MemorySaver checkpointer, as LangChain's docs
// set one up) with a fake model that answers with the recorded assistant messages and tools
// that return the recorded outputs. What the model received at each call is the request sent.
//
// The middleware edits the agent's message list in place, so an output it clears stays cleared
// in the agent's state (and its checkpoints) for every later call: LangChain's clearing is
// stateful and destructive, unlike Anthropic's server-side one, and the bench measures it as it
// runs. Its trigger counts the messages (approx: characters / 4), without the system prompt.

import {
  AIMessage,
  ClearToolUsesEdit,
  HumanMessage,
  contextEditingMiddleware,
  createAgent,
  fakeModel,
  tool,
  type BaseMessage,
} from "langchain";
import { MemorySaver } from "@langchain/langgraph";
import { sameMessage } from "./agent-measure.js";
import type { Policy } from "./agent-policies.js";
import type { AgentMessage, Trajectory } from "./agent-trajectories.js";

const ANY_ARGS = { type: "object", properties: {}, additionalProperties: true } as const;

function args(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { text };
  }
}

/** A message LangChain sent, back in the suite's format: the trajectory's own object where nothing changed. */
function back(m: BaseMessage, original: AgentMessage | undefined): AgentMessage {
  const type = m.getType();
  const content = typeof m.content === "string" ? m.content : m.text; // the system prompt comes as text blocks
  let out: AgentMessage;
  if (type === "tool") {
    const t = m as BaseMessage & { tool_call_id: string; name?: string };
    out = { role: "tool", content, toolCallId: t.tool_call_id, ...(t.name ? { name: t.name } : {}) };
  } else if (type === "ai") {
    const calls = (m as AIMessage).tool_calls ?? [];
    out = { role: "assistant", content };
    if (calls.length)
      out.toolCalls = calls.map((c) => ({ id: c.id!, name: c.name, arguments: JSON.stringify(c.args) }));
  } else {
    out = { role: type === "system" ? "system" : "user", content };
  }
  if (!original) return out;
  // Arguments come back re-serialized: the recorded text stands for them when they parse alike.
  if (out.toolCalls && original.toolCalls?.length === out.toolCalls.length) {
    out.toolCalls = out.toolCalls.map((c, i) => {
      const o = original.toolCalls![i]!;
      return JSON.stringify(args(o.arguments)) === c.arguments ? { ...c, arguments: o.arguments } : c;
    });
  }
  if (out.role === "tool" && !original.name) delete out.name;
  return sameMessage(out, original) ? original : out;
}

/** Every request the agent's model received while replaying `t`, one per recorded assistant message. */
export async function langchainRequests(t: Trajectory, trigger: number, keep: number): Promise<AgentMessage[][]> {
  const model = fakeModel();
  const outputs: string[] = [];
  const names = new Set<string>();
  const system = t.steps[0]?.role === "system" ? t.steps[0].content : undefined;
  const steps = system === undefined ? t.steps : t.steps.slice(1);
  // The agent's invocations: the user messages that start each, then what the model and tools do.
  const inputs: HumanMessage[][] = [];
  let assistants = 0;
  let last: AgentMessage | undefined;
  for (const m of steps) {
    if (m.role === "user") {
      if (last?.role !== "user") inputs.push([]);
      inputs[inputs.length - 1]!.push(new HumanMessage(m.content));
    } else if (m.role === "assistant") {
      if (inputs.length === 0 || (last?.role === "assistant" && !last.toolCalls?.length)) inputs.push([]);
      const toolCalls = (m.toolCalls ?? []).map((c) => ({
        id: c.id,
        name: c.name,
        args: args(c.arguments),
        type: "tool_call" as const,
      }));
      for (const c of toolCalls) names.add(c.name);
      model.respond(new AIMessage({ content: m.content, tool_calls: toolCalls }));
      assistants++;
    } else if (m.role === "tool") {
      outputs.push(m.content);
    } else {
      throw new Error(`${t.id}: a system message after the first`);
    }
    last = m;
  }
  if (last?.role === "tool") model.respond(new AIMessage("")); // the agent asks once more after the last result
  const tools = [...names].map((name) =>
    tool(async () => outputs.shift() ?? "", { name, description: name, schema: ANY_ARGS }),
  );
  const agent = createAgent({
    model,
    tools,
    checkpointer: new MemorySaver(),
    ...(system !== undefined ? { systemPrompt: system } : {}),
    middleware: [
      contextEditingMiddleware({
        edits: [new ClearToolUsesEdit({ trigger: { tokens: trigger }, keep: { messages: keep } })],
      }),
    ],
  });
  const config = { configurable: { thread_id: t.id }, recursionLimit: 100_000 };
  for (const messages of last?.role === "user" ? inputs.slice(0, -1) : inputs) await agent.invoke({ messages }, config);
  if (outputs.length > 0) throw new Error(`${t.id}: ${outputs.length} recorded outputs were never asked for`);
  const calls = model.calls.slice(0, assistants);
  if (calls.length !== assistants)
    throw new Error(`${t.id}: the agent called its model ${calls.length} times, the run has ${assistants} replies`);
  // Call k's messages stand, position by position, for the messages before assistant reply k.
  const before = t.steps.map((m, i) => (m.role === "assistant" ? i : -1)).filter((i) => i >= 0);
  return calls.map((c, k) => {
    const history = t.steps.slice(0, before[k]);
    return c.messages.map((m, j) => back(m, history[j]));
  });
}

/** (d) as a policy: the replay runs at `start`, each step returns what the model received. */
export function langchainClearing(name: string, trigger: number, keep = 3): Policy {
  return {
    name,
    start: async (t) => {
      const requests = await langchainRequests(t, trigger, keep);
      return (_history, step) => requests[step]!;
    },
  };
}
