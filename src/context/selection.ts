/**
 * The middle step of a build (allocate -> select -> format): which messages of the chat's
 * path a request sends. It fills the memory slice with recall, selects the conversation in
 * the engine within the room the allocation left (redoing the selection when history limits
 * make a cut text cost more), and starts the conversation at a compaction the format sends
 * back. The build (build.ts) counts the parts and checks the budget around it; the window
 * modules (window*.ts) format what it selected.
 */
import { CtxloomError } from "../errors.js";
import { REPLY_PRIMING, messageTokens } from "../tokens/chat.js";
import type { Message } from "../message.js";
import { checkCriticalUnits } from "./critical.js";
import type { BuildPlan } from "./build-plan.js";
import { selectStable } from "./stable.js";
import { truncateToChars } from "./truncate.js";
import { systemCost } from "./system-cost.js";
import type { ContextView } from "./view-source.js";
import { fromCompaction, type PartsView } from "./reasoning-view.js";
import type { ContextSource, ContextWindow } from "./types.js";

/** The parts of a request counted before its conversation (memory grows once recall fills it). */
export interface Counted {
  system: string;
  memory: string;
  memoryRevision: ContextWindow["memoryRevision"];
  systemTokens: number;
  memoryTokens: number;
  inputTokens: number;
  tools: number;
  /** Older tool results are being cleared (toolResults.clear past its trigger). */
  clearing: boolean;
}

/** What the selection chose: one literal per build, its fields set once. */
export interface Selection {
  conversation: Message[];
  /** The selection's messages before any history limit cut one (a cut message is a new object). */
  uncut: Message[];
  /** The ids selected, when the OpenAI format sends them with no Message made (see ContextSource.sender). */
  sent: Int32Array | null;
  conversationTokens: number;
  evicted: number;
  /** The conversation starts at a compaction the format sends back. */
  compacted: boolean;
}

/** How far back the selection looks: a compaction this format sends back stands for all before it. */
export function consideredOf(plan: BuildPlan, parts: PartsView | null): number {
  const horizon = parts ? parts.horizon : 0;
  return horizon > 0 && (plan.window === 0 || plan.window > horizon) ? horizon : plan.window;
}

/** Reads message `id` as this request sends it (the view's copy when it has one). */
export function readerOf(source: ContextSource, view: ContextView | null): (id: number) => Message {
  return view ? (id: number) => view.messages.get(id) ?? source.message(id) : (id: number) => source.message(id);
}

/**
 * Recall fills the memory slice with exchanges not in the window the rest would hold (the
 * memory it adds only shrinks that window, so nothing is sent twice). Sets `c.memory` and
 * `c.memoryTokens` when it adds any; returns the messages recalled.
 */
export function fillRecall(source: ContextSource, plan: BuildPlan, c: Counted, considered: number): Message[] {
  if (!source.recall || source.head < 0) return [];
  const { budget, limits, counter, limit } = plan;
  const memory = c.memory;
  const room = limit - REPLY_PRIMING - c.systemTokens - c.memoryTokens - c.inputTokens;
  const before =
    room < 0 ? null : selectStable(source, room, considered, room, plan.prefixStep, plan.format === "anthropic");
  const window = before?.fits ? before.ids.slice() : [];
  const join = (text: string) => (memory && text ? `${memory}\n\n${text}` : memory || text);
  const fill = source.recall(Array.from(window), (text) => {
    const all = join(text);
    return systemCost(counter, all) <= budget.memory && (!limits || all.length <= limits.memoryMaxChars);
  });
  if (!fill.text) return [];
  c.memory = join(fill.text);
  c.memoryTokens = systemCost(counter, c.memory);
  return fill.messages;
}

/**
 * Selects the conversation within `available` tokens. History limits cut texts after the
 * selection, and a cut text (with its "…") can cost more than the whole one did: the selection
 * is then redone with that much less, until the cut conversation fits. Each round asks for at
 * least one token less, and rounds are rare (a cut adds a token or two), so this ends quickly.
 */
export function selectConversation(
  source: ContextSource,
  plan: BuildPlan,
  view: ContextView | null,
  parts: PartsView | null,
  considered: number,
  available: number,
): Selection {
  const { profile, limits, counter, format } = plan;
  let conversation: Message[] = [];
  let uncut: Message[] = [];
  let sent: Int32Array | null = null;
  let conversationTokens = 0;
  let evicted = 0;
  if (source.head >= 0) {
    let ask = available;
    for (;;) {
      const selection = selectStable(source, ask, considered, available, plan.prefixStep, plan.format === "anthropic");
      if (!selection.fits) {
        throw new CtxloomError(
          "MESSAGE_TOO_LARGE",
          `The newest user turn and the chat's critical messages need ${selection.forcedTokens} tokens` +
            (ask < available ? ` (more once cut to the history limits)` : ``) +
            `, but only ` +
            `${available} are left for the conversation in ${profile.name}'s window after the system prompt, memory ` +
            `and input. ` +
            `Split or summarize the message, lower the priority of old critical messages, or use a model with a ` +
            `larger window.`,
        );
      }
      const ids = selection.ids;
      if (ask === available) checkCriticalUnits(source, ids);
      conversationTokens = selection.keptTokens;
      evicted = selection.evicted;
      if (!limits && format === "openai" && source.sender && source.held) {
        // (Maybe the engine's view: read before its next call.) Formatted straight from the chat; the
        // conversation is made when read.
        sent = ids;
        break;
      }
      conversation = uncut = Array.from(ids, readerOf(source, view));
      if (!limits) break;
      conversation = conversation.map((m) => {
        if (m.role === "tool" || m.kind === "summary" || m.content.length <= limits.maxCharsPerTurn) return m;
        const cut = { ...m, content: truncateToChars(m.content, limits.maxCharsPerTurn) };
        cut.tokens = messageTokens(counter, cut);
        conversationTokens += cut.tokens - tokensOf(source, m); // the selection counted what the engine holds
        return cut;
      });
      if (conversationTokens <= available) break;
      ask -= conversationTokens - available;
    }
  }

  const compaction = parts && parts.boundary >= 0 ? fromCompaction(source, parts.boundary, conversation) : null;
  if (compaction) {
    conversation = compaction.conversation;
    conversationTokens -= compaction.tokens;
    evicted -= compaction.carried;
  }
  return { conversation, uncut, sent, conversationTokens, evicted, compacted: compaction !== null };
}

/**
 * What the selection counted for `m`: the engine's count, which a redaction sets anew (a
 * message read from the chat may carry the count it was stored with).
 */
export const tokensOf = (source: ContextSource, m: Message): number => source.engine.tokens(source.tree, m.id);
