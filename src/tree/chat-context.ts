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

/** What a chat hands over to build its context. */
export interface ChatContextState {
  nodes: ChatNodes;
  head: number;
  counter: TokenCounter;
  profile: Readonly<ModelProfile>;
  system: string | null;
  options: ChatOptions;
  summaryPresentation: SummaryPresentation;
  /** The chat as recall reads it (asked only when the build recalls). */
  current: () => RecallChat;
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
  ctx: LoomContext, chat: ChatContextState, options: BuildOptions | undefined, planned?: PlannedBuild,
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
    sendable: (id) => nodes.sendable(id),
    summaryPresentation: chat.summaryPresentation,
    criticalCalls: nodes.criticalCalls > 0,
    strictModels: ctx.strictModels === true,
  };
  // The options resolved once (every one checked before anything is embedded, tools counted
  // once), and once per call: a build again after a summary reuses its plan.
  const plan = planned?.plan ?? planBuild(source, rest);
  if (planned) planned.plan = plan;
  if (!recall) return buildPlanned(source, plan); // synchronous: no await on a server's hot path
  return recallHook(ctx.recall, chat.current(), recall, rest ?? {}).then((hook) => {
    if (hook) source.recall = hook;
    return buildPlanned(source, plan);
  });
}
