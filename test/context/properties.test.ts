// Chat-level property tests (issue 3, point 7): random chats (branches, priorities, names, tool
// units, unicode) built with random options, the same on both engines. Every build: the same
// result on WASM and JS; usage.total is the cookbook count of the messages sent, never over the
// limit; the conversation is ascending on the head's branch, keeps every CRITICAL message and
// the newest user turn, and never starts with a tool result; evicted counts every message of
// the branch left out; a failed call changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  Loom,
  countTokens,
  loadTokenizer,
  type BuildOptions,
  type Chat,
  type ContextWindow,
  type OpenAIMessage,
  type Message,
  type MessageInput,
  type ModelProfile,
  type Priority,
} from "../../src/index.js";
import { HISTORY_LIMITS } from "../../src/models/profiles.js";
import { ENGINES, snapshot } from "../helpers.js";

const MODELS: ModelProfile[] = [
  { name: "prop-o200k", contextWindow: 400, sizeClass: "tiny", tokensPerChar: 0.25, encoding: "o200k_base" },
  { name: "prop-cl100k", contextWindow: 900, sizeClass: "small", tokensPerChar: 0.25, encoding: "cl100k_base" },
  { name: "prop-heuristic", contextWindow: 300, sizeClass: "tiny", tokensPerChar: 0.28 },
];

const WORDS = [
  "the",
  "context",
  "window",
  "budget",
  "token",
  "café",
  "naïve",
  "日本語",
  "中文",
  "😀",
  "👍🏽",
  "<|endoftext|>",
  "fn(x)",
  '{"a":1}',
  "Hello.",
  "Why?",
  "Yes!",
  "\n",
  "  ",
  "x=1;",
  "—",
  "Ωμέγα",
  "привет",
  "🌧️",
  "done.",
];

type Step =
  | { t: "append"; role: number; prio: number; words: number[]; name: boolean; calls: number }
  | { t: "regenerate"; pick: number }
  | { t: "checkout"; pick: number }
  | { t: "edit"; pick: number; words: number[] }
  | {
      t: "build";
      system: number;
      memory: number;
      input: number;
      maxMessages: number;
      format: boolean;
      limits: boolean;
      split: number;
      prefix?: number;
    };

const words = fc.array(fc.nat({ max: WORDS.length - 1 }), { minLength: 0, maxLength: 40 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant("append" as const),
      role: fc.nat({ max: 99 }),
      prio: fc.nat({ max: 5 }),
      words,
      name: fc.boolean(),
      calls: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("regenerate" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("checkout" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("edit" as const), pick: fc.nat(), words }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant("build" as const),
      system: fc.nat({ max: 30 }),
      memory: fc.nat({ max: 30 }),
      input: fc.nat({ max: 20 }),
      maxMessages: fc.nat({ max: 12 }),
      format: fc.boolean(),
      limits: fc.boolean(),
      split: fc.nat({ max: 3 }),
      prefix: fc.nat({ max: 3 }),
    }),
  },
);

const SPLITS = [
  undefined,
  { system: 0.1, memory: 0.1, conversation: 0.6, input: 0.15, reserve: 0.05 },
  { system: 0.4, memory: 0.3, conversation: 0.2, input: 0.05, reserve: 0.05 },
  undefined,
];
const PREFIXES: BuildOptions["stablePrefix"][] = [undefined, false, { step: 0.3 }, { step: 0.5 }];
const PRIOS: (Priority | undefined)[] = ["low", "normal", "high", "critical", undefined, undefined];
const text = (w: number[], fallback: string) => w.map((i) => WORDS[i]).join(" ") || fallback;
const sentences = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `${tag} ${i} is one more plain sentence.`).join(" ");

/** Calls of the assistant message the head belongs to that have no result on the branch yet. */
function pendingCalls(chat: Chat): string[] {
  if (chat.head === null) return [];
  const answered = new Set<string>();
  let m: Message | null = chat.get(chat.head);
  while (m && m.role === "tool") {
    answered.add(m.toolCallId!);
    m = m.parentId === null ? null : chat.get(m.parentId);
  }
  return m?.toolCalls ? m.toolCalls.map((c) => c.id).filter((id) => !answered.has(id)) : [];
}

/** Runs one step on a chat; returns what is observable of its outcome. */
async function apply(chat: Chat, s: Step, serial: number, model: ModelProfile): Promise<unknown> {
  const n = chat.messageCount;
  try {
    switch (s.t) {
      case "append": {
        const pending = pendingCalls(chat);
        const priority = PRIOS[s.prio];
        let input: MessageInput;
        if (pending.length > 0 && s.role < 70)
          input = { role: "tool", content: text(s.words, "ok"), toolCallId: pending[0]! };
        else if (s.role < 35)
          input = { role: "user", content: text(s.words, "hi"), ...(s.name ? { name: "alice" } : {}) };
        else if (s.role < 65) input = { role: "assistant", content: text(s.words, "sure") };
        else if (s.role < 88) {
          const calls = Array.from({ length: s.calls }, (_, k) => ({
            id: `call_${serial}_${k}`,
            type: "function" as const,
            function: { name: "search", arguments: JSON.stringify({ q: text(s.words, "") }) },
          }));
          input = { role: "assistant", content: s.words.length % 2 ? text(s.words, "") : "", toolCalls: calls };
        } else input = { role: "system", content: text(s.words, "rule") };
        if (priority && input.role !== "tool") input.priority = priority;
        const m = await chat.append(input);
        return { id: m.id, tokens: m.tokens, priority: m.priority };
      }
      case "regenerate": {
        const assistants = chat.path().filter((m) => m.role === "assistant");
        if (assistants.length === 0) return null;
        const r = await chat.regenerate(assistants[s.pick % assistants.length]!.id);
        return r?.id ?? null;
      }
      case "checkout":
        return n === 0 ? null : (await chat.checkout(s.pick % n)).id;
      case "edit": {
        const users = chat.path().filter((m) => m.role === "user");
        if (users.length === 0) return null;
        return (await chat.edit(users[s.pick % users.length]!.id, text(s.words, "again"))).id;
      }
      case "build": {
        const options: BuildOptions = { format: s.format ? "anthropic" : "openai" };
        if (s.system) options.system = sentences(s.system, "Rule");
        if (s.memory) options.memory = sentences(s.memory, "Fact");
        if (s.input) options.input = sentences(s.input, "Ask");
        if (s.maxMessages) options.maxMessages = s.maxMessages;
        if (s.limits) options.historyLimits = true;
        if (SPLITS[s.split]) options.budget = SPLITS[s.split]!;
        if (PREFIXES[s.prefix ?? 0] !== undefined) options.stablePrefix = PREFIXES[s.prefix ?? 0]!;
        let ctx: ContextWindow;
        try {
          ctx = await chat.buildContext(options as BuildOptions & { format: "openai" }); // either format, typed loosely
        } catch (error) {
          // An Anthropic request needs a user message: a branch without one, and no input, is refused.
          const noUser =
            options.format === "anthropic" && !options.input && !chat.path().some((m) => m.role === "user");
          if (noUser && (error as { code?: string }).code === "INVALID_ARGUMENT") return { error: "INVALID_ARGUMENT" };
          // A critical unit whose calls are not all answered cannot be sent: the build says so.
          const path = chat.path();
          const brokenCritical = path.some((m, i) => m.priority === "critical" && !completeAt(path, i));
          if (brokenCritical && (error as { code?: string }).code === "INVALID_TOOL_CALL")
            return { error: "INVALID_TOOL_CALL" };
          return refusal(error);
        }
        checkContext(chat, ctx, options, model);
        if (options.stablePrefix !== false) {
          // The stable prefix never drops a HIGH message that the plain selection keeps.
          const plain = await chat.buildContext({
            ...(options as BuildOptions & { format: "openai" }),
            stablePrefix: false,
          });
          const kept = new Set(ctx.conversation.map((m) => m.id));
          for (const m of plain.conversation)
            if (m.priority === "high") expect(kept.has(m.id), `HIGH ${m.id} dropped by the stable prefix`).toBe(true);
        }
        const { conversation, ...rest } = ctx;
        return { ...rest, conversation: conversation.map((m) => [m.id, m.tokens, m.content]) };
      }
    }
  } catch (error) {
    return refusal(error);
  }
}

/** The only error a valid call may meet here. */
function refusal(error: unknown): { error: string } {
  const code = (error as { code?: string }).code;
  // OPEN_TOOL_CALLS: a non-tool message appended while calls above the head have no result.
  expect(["MESSAGE_TOO_LARGE", "OPEN_TOOL_CALLS"], `unexpected error ${String(error)}`).toContain(code);
  return { error: code! };
}

function checkContext(chat: Chat, ctx: ContextWindow, options: BuildOptions, model: ModelProfile): void {
  const { usage } = ctx;
  expect(usage.total).toBeLessThanOrEqual(usage.limit);
  if (options.format === "openai") {
    expect(usage.total).toBe(countTokens(ctx.messages as OpenAIMessage[], { model }));
    expect(usage.total).toBe(3 + usage.system + usage.memory + usage.conversation + usage.input);
  } else if (ctx.format === "anthropic") {
    for (let i = 0; i < ctx.messages.length; i++) {
      expect((ctx.messages[i] as { role: string }).role).toBe(i % 2 === 0 ? "user" : "assistant"); // the user first, then alternating
    }
  }
  if (options.input !== undefined) expect(ctx.input).toBe(options.input);
  const path = chat.path();
  const index = new Map(path.map((m, i) => [m.id, i]));
  const ids = ctx.conversation.map((m) => m.id);
  for (let i = 1; i < ids.length; i++) expect(ids[i]!).toBeGreaterThan(ids[i - 1]!);
  for (const id of ids) expect(index.has(id), `message ${id} is not on the head's branch`).toBe(true);
  if (options.format === "openai" && ctx.conversation.length > 0) expect(ctx.conversation[0]!.role).not.toBe("tool");
  // tool results only with their call (the Anthropic format breaks this today: see format.test.ts)
  const kept = new Set(ids);
  for (const m of ctx.conversation) {
    if (m.role !== "tool" || options.format === "anthropic") continue;
    let a = chat.get(m.parentId!);
    while (a.role === "tool") a = chat.get(a.parentId!);
    expect(kept.has(a.id), `tool result ${m.id} without its call ${a.id}`).toBe(true);
  }
  // evicted: every message of the branch the conversation leaves out (no summaries here), inside the horizon or not
  expect(ctx.evicted).toBe(path.length - ids.length);
  if (options.format === "anthropic") return; // leading assistant messages are dropped there
  // the newest user turn among the messages considered
  const turns = options.historyLimits ? 2 * HISTORY_LIMITS[model.sizeClass].maxTurns : Infinity;
  const window = Math.min(options.maxMessages ?? Infinity, turns, path.length);
  const newestUser = path
    .slice(path.length - window)
    .reverse()
    .find((m) => m.role === "user");
  if (newestUser) expect(kept.has(newestUser.id), `newest user turn ${newestUser.id} dropped`).toBe(true);
  // every CRITICAL message of the branch, unless its tool unit is incomplete
  path.forEach((m, i) => {
    if (m.priority === "critical" && completeAt(path, i)) expect(kept.has(m.id), `CRITICAL ${m.id} dropped`).toBe(true);
  });
}

/** Whether path[i] is outside any tool unit, or in one whose calls are all answered on the path. */
function completeAt(path: Message[], i: number): boolean {
  let a = i;
  while (a >= 0 && path[a]!.role === "tool") a--;
  if (a < 0 || !path[a]!.toolCalls) return path[i]!.role !== "tool";
  const answered = new Set<string>();
  for (let k = a + 1; k < path.length && path[k]!.role === "tool"; k++) answered.add(path[k]!.toolCallId!);
  return path[a]!.toolCalls!.every((c) => answered.has(c.id));
}

describe("buildContext on random chats: both engines, exact usage, the guarantees", () => {
  let looms: Loom[] = [];
  beforeAll(async () => {
    for (const m of MODELS) await loadTokenizer(m);
    looms = await Promise.all(ENGINES.map((engine) => Loom.open({ engine })));
  });
  afterAll(async () => {
    await Promise.all(looms.map((l) => l.close()));
  });

  it("identical outcomes on WASM and JS; usage exact and within the limit", async () => {
    let builds = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: MODELS.length - 1 }),
        fc.array(step, { minLength: 1, maxLength: 60 }),
        async (mi, steps) => {
          const model = MODELS[mi]!;
          const chats = await Promise.all(
            looms.map((l) => l.user("p").create({ model, system: "You are a careful assistant. Keep answers short." })),
          );
          for (const [serial, s] of [
            ...steps,
            {
              t: "build",
              system: 0,
              memory: 0,
              input: 0,
              maxMessages: 0,
              format: false,
              limits: false,
              split: 0,
            } as Step,
          ].entries()) {
            const before = s.t === "build" ? await Promise.all(chats.map((c) => snapshot(c))) : undefined;
            const outcomes = [];
            for (const chat of chats) outcomes.push(await apply(chat, s, serial, model));
            expect(outcomes[0]).toEqual(outcomes[1]);
            if (s.t === "build") {
              const o = outcomes[0] as { error?: string };
              if (o.error) refused++;
              else builds++;
              // a build never changes the chat
              expect(await Promise.all(chats.map((c) => snapshot(c)))).toEqual(before);
            }
            const errored = (outcomes[0] as { error?: string } | null)?.error !== undefined;
            if (s.t === "append" && errored) expect(chats[0]!.messageCount).toBe(chats[1]!.messageCount);
          }
          expect(chats[0]!.path().map((m) => [m.id, m.tokens])).toEqual(chats[1]!.path().map((m) => [m.id, m.tokens]));
          await Promise.all(chats.map((c, i) => looms[i]!.user("p").delete(c.id)));
        },
      ),
      { numRuns: 250 },
    );
    expect(builds).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(0);
  });
});
