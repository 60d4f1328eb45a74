/**
 * A request's context in three steps: allocate (here: the system prompt, memory, input and tool
 * definitions counted within their slices, and the budget they leave the conversation), select
 * (selection.ts: recall, the conversation in the engine, a compaction's horizon) and format
 * (window.ts and one module per format: window-anthropic.ts, window-responses.ts, window-openai.ts).
 */
import { CtxloomError } from "../errors.js";
import { REPLY_PRIMING, TOKENS_PER_MESSAGE, callCounter, messageTokens } from "../tokens/chat.js";
import { planBuild, type BuildPlan } from "./build-plan.js";
import { truncateToChars } from "./truncate.js";
import { fitted, systemCost } from "./system-cost.js";
import { toolView } from "./views.js";
import type { ContextView } from "./view-source.js";
import { partsView, type PartsView } from "./reasoning-view.js";
import { consideredOf, fillRecall, selectConversation, type Counted } from "./selection.js";
import { baseOf } from "./window.js";
import { anthropicWindow } from "./window-anthropic.js";
import { responsesWindow } from "./window-responses.js";
import { openAIWindow } from "./window-openai.js";
import type { BuildOptions, ContextSource, ContextWindow, ContextWindowFor } from "./types.js";

export type * from "./types.js";
export { BUILD_KEYS } from "./types.js";
export { formatPrompt } from "./window.js";

/**
 * Builds the context of one request: truncates system and
 * memory to their slices, lets unused slices flow to the conversation, selects the
 * conversation in the engine (one call: walk, priorities, tool units), and formats.
 * Nothing is tokenized but the system, memory and input texts of this call.
 */
export function buildContext<O extends BuildOptions | undefined = undefined>(
  source: ContextSource,
  options?: O,
): ContextWindowFor<O> {
  return build(source, options) as ContextWindowFor<O>;
}

function build(source: ContextSource, options: BuildOptions | undefined): ContextWindow {
  return buildPlanned(source, planBuild(source, options));
}

/**
 * @internal Builds from a plan `planBuild` made of the call's options: a caller that plans
 * first (a chat checks every option before recall embeds anything, and builds again after a
 * summary) hands the plan on, so no option is checked nor tool counted twice.
 */
export function buildPlanned(source: ContextSource, plan: BuildPlan): ContextWindow {
  const { profile, budget, limits, counter, limit, input, format } = plan;

  // System and memory: truncated to their slices, each sent as its own message. A system
  // prompt is the same text build after build: its count is kept (per counter, a few texts).
  const system = fitted(counter, plan.system, budget.system);
  // The working memory the chat carries goes first, the call's own after it: one text, cut as one.
  const stored = plan.memoryScope === "none" ? undefined : source.stored;
  const joined = stored?.text ? (plan.memory ? `${stored.text}\n\n${plan.memory}` : stored.text) : plan.memory;
  const memory = fitted(counter, limits ? truncateToChars(joined, limits.memoryMaxChars) : joined, budget.memory);
  const memoryRevision = stored
    ? { scope: stored.scope, revision: stored.revision, omitted: Math.max(0, stored.text.length - memory.length) }
    : null;
  const systemTokens = system ? systemCost(counter, system) : 0;
  const memoryTokens = memory ? systemCost(counter, memory) : 0;
  if (input !== undefined && counter.atLeast) {
    // A linear bound first: an input that cannot fit is refused before it is counted.
    const least = TOKENS_PER_MESSAGE + callCounter(counter, () => counter.atLeast!(input));
    if (least > limit - REPLY_PRIMING) {
      throw new CtxloomError(
        "MESSAGE_TOO_LARGE",
        `The input (at least ${least} tokens) does not fit ${profile.name}'s window (limit ${limit} tokens). ` +
          `Split or summarize the input, or use a model with a larger window.`,
      );
    }
  }
  const inputTokens = input === undefined ? 0 : messageTokens(counter, { role: "user", content: input });
  const tools = plan.tools ?? 0;

  // Tool results, reasoning and compactions as this request sends them (cut, cleared, left
  // out): the selections count what is sent.
  const fixed = REPLY_PRIMING + tools + systemTokens + memoryTokens + inputTokens;
  const { view: results, clearing } = source.toolViews
    ? toolView(source, plan.toolResults, limit - fixed, fixed, limit)
    : NO_TOOL_VIEW;
  const parts = source.toolViews
    ? partsView(
        source,
        format,
        plan.reasoningTurns,
        input !== undefined,
        limit - fixed,
        results,
        source.sendsReasoning === true,
      )
    : null;
  const view = parts ? parts.view : results;
  if (view) source.engine.swapTokens(source.tree, view.ids, view.tokens);
  try {
    const counted: Counted = {
      system,
      memory,
      memoryRevision,
      systemTokens,
      memoryTokens,
      inputTokens,
      tools,
      clearing,
    };
    return selectAndFormat(source, plan, view, parts, counted);
  } finally {
    if (view) source.engine.swapTokens(source.tree, view.ids, view.tokens); // the chat's own counts back
  }
}

/**
 * The rest of a build, with the view's counts in the engine: recall and the selection
 * (selection.ts) around the conversation's budget, then the format's window (window*.ts).
 */
function selectAndFormat(
  source: ContextSource,
  plan: BuildPlan,
  view: ContextView | null,
  parts: PartsView | null,
  c: Counted,
): ContextWindow {
  const considered = consideredOf(plan, parts);
  const recalled = fillRecall(source, plan, c, considered);
  const selection = selectConversation(source, plan, view, parts, considered, conversationRoom(plan, c));
  const base = baseOf(source, plan, view, c, selection, recalled);
  if (plan.format === "anthropic") return anthropicWindow(source, plan, c, selection, base);
  if (plan.format === "responses") return responsesWindow(plan, c, selection, base);
  return openAIWindow(source, plan, view, c, selection, base);
}

/** What the other parts leave (their unused slices included) to the conversation; throws when they leave nothing. */
function conversationRoom(plan: BuildPlan, c: Counted): number {
  const { profile, limit } = plan;
  const { tools, systemTokens, memoryTokens, inputTokens } = c;
  const available = limit - REPLY_PRIMING - tools - systemTokens - memoryTokens - inputTokens;
  if (available < 0 && tools > 0 && available + tools >= 0) {
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `The tool definitions (${tools} tokens) leave no room in ${profile.name}'s window (limit ${limit} tokens) ` +
        `for the system prompt, memory and input. Send fewer tools, shorten their descriptions, or use a model with ` +
        `a larger window.`,
    );
  }
  if (available < 0) {
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `The input (${inputTokens} tokens) does not fit ${profile.name}'s window with the system prompt and memory ` +
        `(limit ${limit} tokens). Split or summarize the input, shorten the system prompt or memory, or use a model ` +
        `with a larger window.`,
    );
  }
  return available;
}

const NO_TOOL_VIEW = { view: null, clearing: false };
