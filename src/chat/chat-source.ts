/**
 * The source a chat's context is built from: the chat's engine tree, its messages read from its
 * columns (during the build, and by the context once it outlives it), its working memory as the
 * store holds it now, and recall's hook when the build recalls; then the build itself
 * (context/build.ts). ChatContexts (chat-context.ts) calls it once per build.
 */
import { buildPlanned, type BuildOptions, type ContextSource, type ContextWindow } from "../context/build.js";
import { planBuild, type BuildPlan } from "../context/build-plan.js";
import type { SummaryPresentation } from "../summary/present.js";
import type { ModelProfile } from "../models/profiles.js";
import type { ChatOptions } from "../store/types.js";
import type { TokenCounter } from "../tokens/index.js";
import type { ChatNodes } from "./nodes.js";
import { recallHook, splitRecall } from "../recall/chat-recall.js";
import type { RecallChat } from "../recall/port.js";
import type { LoomContext } from "./sync.js";
import type { ToolResultPolicy } from "../models/tool-results.js";
import { memoryText } from "../memory/cache.js";

/** What a chat hands over to build its context. */
export interface ChatContextState {
  nodes: ChatNodes;
  head: number;
  counter: TokenCounter;
  profile: Readonly<ModelProfile>;
  system: string | null;
  options: ChatOptions;
  summaryPresentation: SummaryPresentation;
  /** How the chat sends tool results: its own settings over its Loom's. */
  toolResults: ToolResultPolicy;
  /** The context goes to an SDK that sends its kept turns' reasoning (see ContextSource.sendsReasoning). */
  sendsReasoning?: boolean;
  /** The chat as recall reads it (asked only when the build recalls). */
  recallChat: { current(): RecallChat };
  /** The calibration factor of a model for this build (see ContextSource.calibrate). */
  calibrate?: (model: string) => number;
  /** Whose chat it is, and its id: the working memory a context carries is the user's or the chat's own. */
  userId: string;
  chatId: string;
}

/** One call's plan, kept between its builds (a build, a summary, the build again). */
export interface PlannedBuild {
  plan?: BuildPlan;
}

/**
 * A chat's context: the source the context room builds from (the engine's tree, messages
 * read from the chat's columns, during the build and once the context outlives it), with
 * recall's hook when the build recalls (every option checked before anything is embedded).
 * Synchronous unless it recalls.
 */
export function buildChatContext(
  ctx: LoomContext,
  chat: ChatContextState,
  options: BuildOptions | undefined,
  planned?: PlannedBuild,
): ContextWindow | Promise<ContextWindow> {
  const { rest, recall } = splitRecall(ctx.recall, options);
  const { nodes } = chat;
  const columns = nodes.columns;
  // The columns hold every field of a message, and outlive the nodes when the chat sleeps:
  // one reader serves the build and the context that outlives it.
  const read = (id: number) => columns.message(id);
  const source: ContextSource = {
    engine: nodes.engine,
    tree: nodes.tree,
    head: chat.head,
    counter: chat.counter,
    profile: chat.profile,
    system: chat.system,
    budget: chat.options.budget,
    historyLimits: chat.options.historyLimits,
    message: read,
    held: read,
    sender: nodes,
    summaryPresentation: chat.summaryPresentation,
    criticalCalls: nodes.criticalCalls > 0,
    strictModels: ctx.strictModels === true,
    toolResults: chat.toolResults,
    toolViews: nodes,
    summaryLevels: { chat: chat.options.summaries, loom: ctx.summaries },
    reasoningTurns: chat.options.reasoningTurns ?? ctx.reasoningTurns,
  };
  // (set, not spread: a spread makes an object per build, and the source's fields a slower shape)
  if (chat.sendsReasoning) source.sendsReasoning = true;
  if (chat.calibrate) source.calibrate = chat.calibrate;
  // The options resolved once (every one checked before anything is embedded, tools counted
  // once), and once per call: a build again after a summary reuses its plan.
  const plan = planned?.plan ?? planBuild(source, rest);
  if (planned) planned.plan = plan;
  const scope = plan.memoryScope ?? chat.options.memoryScope ?? ctx.memoryScope ?? "user";
  const cache = ctx.memory.cache;
  if (cache && scope !== "none") {
    // The working memory, as the store holds it now: synchronous when the store answers so (the memory store's).
    const space = cache.now(chat.userId, scope === "chat" ? chat.chatId : null);
    if (space instanceof Promise) {
      return space.then((s) => {
        source.stored = { scope, revision: s.revision, text: memoryText(s, scope) };
        return recalled(ctx, chat, source, plan, recall, rest);
      });
    }
    source.stored = { scope, revision: space.revision, text: memoryText(space, scope) };
  }
  return recalled(ctx, chat, source, plan, recall, rest);
}

/** The build, after recall's hook when the build recalls. */
function recalled(
  ctx: LoomContext,
  chat: ChatContextState,
  source: ContextSource,
  plan: BuildPlan,
  recall: ReturnType<typeof splitRecall>["recall"],
  rest: BuildOptions | undefined,
): ContextWindow | Promise<ContextWindow> {
  if (!recall) return buildPlanned(source, plan); // synchronous: no await on a server's hot path
  return recallHook(ctx.recall, chat.recallChat.current(), recall, rest ?? {}).then((ready) => {
    if (ready) {
      source.recall = ready.recall;
      source.recallDegraded = ready.recallDegraded;
    }
    return buildPlanned(source, plan);
  });
}
