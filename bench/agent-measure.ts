// What the agent suite measures on every request a policy sends (bench/agent.bench.ts).
//
// Tokens: the estimate, ceil(characters / 4) per message, where a message's characters
// are its content plus each call's name and arguments; and exactly, the same texts counted with
// ctxloom's o200k_base counter. A request's tokens are its messages' sum (no tool definitions,
// no per-message framing: the trajectories do not record the tool schemas the runs sent).
//
// Billed input, with prompt-cache pricing: the tokens of a request that it shares as an exact
// prefix with the previous request of the same trajectory cost 0.1, the rest 1. The shared
// prefix is counted in whole messages: the longest run of leading messages equal, position by
// position, to the previous request's (same role, content, calls with their ids, names and
// arguments, call id and name). The first message that differs ends it, and none of its tokens
// count as shared (providers cache in blocks; a cleared output shares nothing but its framing).
// The first request of a trajectory shares nothing.
//
// A request is broken when a tool result answers no call still open before it (a result
// without its call), when a call's result is missing before the next assistant message or the
// request's end (a call without its result: ids may repeat, so a result closes the newest open
// call of its id), or when the request does not fit the window: its estimate plus the output
// reserve is over 128k.

import type { TokenCounter } from "../src/index.js";
import type { AgentMessage } from "./agent-trajectories.js";

export const WINDOW = 128_000;
export const OUTPUT_RESERVE = 8_000;
/** What a request may hold: the window less the output reserve. */
export const INPUT_LIMIT = WINDOW - OUTPUT_RESERVE;
export const NEWEST = 3;

const estimates = new WeakMap<AgentMessage, number>();
const exacts = new WeakMap<AgentMessage, number>();

export function messageText(m: AgentMessage): string {
  let text = m.content;
  for (const c of m.toolCalls ?? []) text += c.name + c.arguments;
  return text;
}

/** ceil(characters / 4), cached per message object. */
export function estimate(m: AgentMessage): number {
  let n = estimates.get(m);
  if (n === undefined) {
    n = Math.ceil(messageText(m).length / 4);
    estimates.set(m, n);
  }
  return n;
}

export function exact(counter: TokenCounter, m: AgentMessage): number {
  let n = exacts.get(m);
  if (n === undefined) {
    n = counter.count(messageText(m));
    exacts.set(m, n);
  }
  return n;
}

export const requestTokens = (ms: readonly AgentMessage[]): number => ms.reduce((n, m) => n + estimate(m), 0);

export function sameMessage(a: AgentMessage, b: AgentMessage): boolean {
  if (a === b) return true;
  if (a.role !== b.role || a.toolCallId !== b.toolCallId || a.name !== b.name || a.content !== b.content) return false;
  const ca = a.toolCalls ?? [];
  const cb = b.toolCalls ?? [];
  return (
    ca.length === cb.length &&
    ca.every((c, i) => c.id === cb[i]!.id && c.name === cb[i]!.name && c.arguments === cb[i]!.arguments)
  );
}

/** How many leading messages `cur` shares with `prev`, position by position. */
export function sharedMessages(prev: readonly AgentMessage[] | undefined, cur: readonly AgentMessage[]): number {
  if (!prev) return 0;
  const n = Math.min(prev.length, cur.length);
  let i = 0;
  while (i < n && sameMessage(prev[i]!, cur[i]!)) i++;
  return i;
}

export interface Broken {
  orphan: boolean;
  open: boolean;
  over: boolean;
}

/** The three ways a request is broken (see the head of this file). */
export function brokenRequest(sent: readonly AgentMessage[]): Broken {
  const open = new Map<string, number>();
  let orphan = false;
  let unanswered = false;
  const pending = () => [...open.values()].some((n) => n > 0);
  for (const m of sent) {
    if (m.role === "tool") {
      const n = open.get(m.toolCallId!) ?? 0;
      if (n > 0) open.set(m.toolCallId!, n - 1);
      else orphan = true;
      continue;
    }
    if (m.role === "assistant") {
      if (pending()) unanswered = true;
      open.clear();
      for (const c of m.toolCalls ?? []) open.set(c.id, (open.get(c.id) ?? 0) + 1);
    }
  }
  if (pending()) unanswered = true;
  return { orphan, open: unanswered, over: requestTokens(sent) > INPUT_LIMIT };
}

/**
 * Whether the newest three tool outputs of the history are the newest three of the request,
 * whole. Their text is compared, not their call ids: a request may rename a call id a run reused
 * (Anthropic refuses two calls of one id in a request); brokenRequest checks that each result
 * answers a call of its request.
 */
export function newestWhole(history: readonly AgentMessage[], sent: readonly AgentMessage[]): boolean {
  const want = history.filter((m) => m.role === "tool").slice(-NEWEST);
  const got = sent.filter((m) => m.role === "tool").slice(-NEWEST);
  return want.length === got.length && want.every((m, i) => m.content === got[i]!.content);
}

/** One policy's figures over one trajectory or over all of them. */
export interface Tally {
  requests: number;
  sent: number;
  billed: number;
  sentExact: number;
  billedExact: number;
  /** Requests whose newest three outputs were not all sent whole. */
  notWhole: number;
  orphan: number;
  open: number;
  over: number;
  /** Requests broken in any of the three ways. */
  broken: number;
}

export const emptyTally = (): Tally => ({
  requests: 0,
  sent: 0,
  billed: 0,
  sentExact: 0,
  billedExact: 0,
  notWhole: 0,
  orphan: 0,
  open: 0,
  over: 0,
  broken: 0,
});

export function addTally(into: Tally, t: Tally): void {
  for (const k of Object.keys(into) as (keyof Tally)[]) into[k] += t[k];
}

/** Adds one request to a tally: `prev` is the request the policy sent before it in this trajectory. */
export function measureRequest(
  tally: Tally,
  counter: TokenCounter,
  history: readonly AgentMessage[],
  sent: readonly AgentMessage[],
  prev: readonly AgentMessage[] | undefined,
): void {
  const shared = sharedMessages(prev, sent);
  let sentEst = 0;
  let sentEx = 0;
  let sharedEst = 0;
  let sharedEx = 0;
  sent.forEach((m, i) => {
    const e = estimate(m);
    const x = exact(counter, m);
    sentEst += e;
    sentEx += x;
    if (i < shared) {
      sharedEst += e;
      sharedEx += x;
    }
  });
  tally.requests++;
  tally.sent += sentEst;
  tally.sentExact += sentEx;
  tally.billed += sentEst - 0.9 * sharedEst;
  tally.billedExact += sentEx - 0.9 * sharedEx;
  if (!newestWhole(history, sent)) tally.notWhole++;
  const b = brokenRequest(sent);
  tally.orphan += +b.orphan;
  tally.open += +b.open;
  tally.over += +b.over;
  tally.broken += +(b.orphan || b.open || b.over);
}
