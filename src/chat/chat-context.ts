/**
 * A chat's context builds (ChatContexts): each one summarizing first when the summary settings
 * say so, through the chat's queue; a provider's count asked when it matters; the prompt form;
 * the preflight of an append; and what the last context reports to `stats()` and to the app's
 * `onCompaction`. The source a build reads is made in chat-source.ts.
 */
import { formatPrompt, type BuildOptions, type ContextWindow, type Usage } from "../context/build.js";
import { CtxloomError, checkOptions } from "../errors.js";
import { scriptClass } from "../models/calibration.js";
import { ChatSummaries } from "../summary/chat-summaries.js";
import { resolveSummaryPolicy } from "../summary/policy.js";
import type { BuildPlan } from "../context/build-plan.js";
import type { ModelProfile } from "../models/profiles.js";
import type { ChatOptions } from "../store/types.js";
import type { TokenCounter } from "../tokens/index.js";
import type { RecallChat } from "../recall/port.js";
import type { ChatSync, LoomContext } from "./sync.js";
import { calibrationStats, chatStats, keepUsage, observeUsage, recentTexts, type ChatStats } from "./stats.js";
import { countedBuild, splitCounter } from "./provider-count.js";
import type { ProviderCount } from "../context/types.js";
import type { ToolResultPolicy } from "../models/tool-results.js";
import type { SummarizingChat, SummaryNotice } from "../summary/chat-summaries.js";
import { ClearedSince, checkCompactOptions, summaryEvent } from "./compaction.js";
import { preflight } from "./preflight.js";
import type { Message, MessageInput } from "../message.js";
import { buildChatContext, type PlannedBuild } from "./chat-source.js";

/**
 * A build's internal settings: `sdk`, the context goes to an SDK that sends its kept turns'
 * reasoning (the AI SDK, LangChain: counted in the OpenAI format); `factor`, the least
 * calibration factor (a build made again smaller, see countedBuild); `at`, the message to build
 * at instead of the head (a request answering a given message, whatever the head is then).
 */
export interface BuildHow {
  sdk?: boolean;
  factor?: number;
  at?: number;
}

const NO_HOW: BuildHow = {};

/** Runs a step in the chat's queue of changes. */
export type RunInQueue = <T>(change: () => T | Promise<T>) => Promise<T>;

/**
 * A chat's context builds: each one summarizing first when the summary settings in force say so
 * (see ChatSummaries), run through the chat's queue (`run`), and the last one's usage for
 * `stats()`. The chat's state is read from its sync. (Its fields are few and flat: a server
 * keeps thousands of chats open.)
 */
export class ChatContexts implements PlannedBuild {
  readonly summaries: ChatSummaries;
  /**
   * Builds do not summarize by this chat's settings (its own nor its Loom's): a build that names none plans no summary.
   */
  readonly #unsummarized: boolean;
  #lastUsage: Usage | null = null;
  /** What the last context cleared, once one has (`onCompaction` hears what each clears anew). */
  #cleared: ClearedSince | null = null;
  #lastEvicted = 0;
  /** The model the last context was built for (its calibration, for stats()). */
  #lastModel: string | null = null;
  /** What the provider's count said of the last context built with a counter (stats()). */
  #lastCount: ProviderCount | null = null;
  readonly #ctx: LoomContext;
  readonly #sync: ChatSync;
  readonly #profile: Readonly<ModelProfile>;
  readonly #counter: TokenCounter;
  readonly #options: ChatOptions;
  readonly #toolResults: ToolResultPolicy;
  /**
   * The plan of a build with no options, made at the first one (see #build), and the calibration
   * it was made with (the chat is its own PlannedBuild: no object more per chat).
   */
  plan: BuildPlan | undefined = undefined;
  #plannedFactor = 0;

  constructor(
    ctx: LoomContext,
    sync: ChatSync,
    profile: Readonly<ModelProfile>,
    counter: TokenCounter,
    options: ChatOptions,
    toolResults: ToolResultPolicy,
  ) {
    this.#ctx = ctx;
    this.#toolResults = toolResults;
    this.#sync = sync;
    this.#profile = profile;
    this.#counter = counter;
    this.#options = options;
    this.summaries = new ChatSummaries(ctx.summaries, options.summaries, counter);
    this.#unsummarized = resolveSummaryPolicy(options.summaries, ctx.summaries) === null;
  }

  /** `buildContext(options)`, `what` naming the call in errors; `how` the build's internal settings (see BuildHow). */
  build(
    options: BuildOptions | undefined,
    what: string,
    run: RunInQueue,
    how: BuildHow = NO_HOW,
  ): Promise<ContextWindow> {
    const o = options as { summaries?: unknown; providerCounter?: unknown } | null | undefined;
    if (
      this.#unsummarized &&
      (o === null || typeof o !== "object" || (o.summaries === undefined && !("providerCounter" in o)))
    ) {
      // Nothing can call for a summary nor a provider's count (a server's usual build): the build
      // alone, with no plan to make nor its closures and promises.
      return run(() => this.#build(options, undefined, how));
    }
    if (o !== null && typeof o === "object" && "providerCounter" in o) return this.#counted(options!, what, run, how);
    const planned = {}; // the second build, after a summary, reuses the first one's plan
    return this.summaries.build(
      options,
      what,
      this.#summarizing(run, () => this.#build(options, planned, how), how.at),
    );
  }

  /** A build that asks the provider's count when it matters (see countedBuild). */
  async #counted(options: BuildOptions, what: string, run: RunInQueue, how: BuildHow): Promise<ContextWindow> {
    const { rest, counter } = splitCounter(options, what);
    if (counter === null) return this.build(rest, what, run, how); // providerCounter: undefined
    const calibration = this.#ctx.calibration;
    const context = await countedBuild(
      {
        build: (factor) => this.build(rest, what, run, { ...how, factor }),
        calibrated: (model) => calibration.has(model, scriptClass(recentTexts(this.#sync))),
        learn: (c, tokens) => this.observeUsage(c, tokens),
      },
      counter,
      rest ?? {},
    );
    this.#lastCount = context.providerCount!;
    return context;
  }

  /** `chat.compact(options)`: a summary now, by the settings in force (see ChatSummaries.compact). */
  compact(options: unknown, run: RunInQueue): Promise<Message | null> {
    let instructions: string | undefined;
    try {
      instructions = checkCompactOptions(options);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.summaries.compact(
      instructions,
      this.#summarizing(run, () => this.#build(undefined, {}, NO_HOW)),
    );
  }

  /** The chat as its summaries see it. */
  #summarizing(
    run: RunInQueue,
    build: () => ContextWindow | Promise<ContextWindow>,
    at?: number,
  ): SummarizingChat<ContextWindow> {
    const listener = this.#ctx.onCompaction;
    const { userId, id: chatId } = this.#sync.record;
    return {
      run: (step) => run(step),
      build,
      nodes: () => this.#sync.nodes(),
      head: () => at ?? this.#sync.head,
      add: (make) => this.#sync.addSummary(make),
      ...(listener ? { heard: (n: SummaryNotice) => listener(summaryEvent(userId, chatId, n)) } : {}),
    };
  }

  /** `buildPrompt(options)`: the same context as one formatted string. */
  async prompt(
    options: Omit<BuildOptions, "format" | "providerCounter"> | undefined,
    run: RunInQueue,
  ): Promise<string> {
    const o = checkOptions<BuildOptions>(options, "buildPrompt(options)");
    if ("format" in o)
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `buildPrompt(options) has no option "format"; use buildContext({ format }) for a formatted list.`,
      );
    if ("providerCounter" in o)
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `buildPrompt(options) has no option "providerCounter" (a prompt is no provider's request); use ` +
          `buildContext({ providerCounter }).`,
      );
    return formatPrompt(await this.build({ ...o, format: "openai" }, "buildPrompt(options)", run));
  }

  /** Throws what appending `inputs` (user messages), then building with `options`, would throw now (see preflight). */
  preflight(inputs: readonly MessageInput[], options: BuildOptions | undefined, appendLimit: number): void {
    const { budget, historyLimits } = this.#options;
    const { recall, strictModels } = this.#ctx;
    const reasoningTurns = this.#options.reasoningTurns ?? this.#ctx.reasoningTurns;
    const settings = {
      system: this.#sync.record.system,
      budget,
      historyLimits,
      appendLimit,
      recall,
      strictModels: strictModels === true,
      toolResults: this.#toolResults,
      reasoningTurns,
    };
    preflight({ profile: this.#profile, counter: this.#counter, ...settings }, inputs, options);
  }

  /** The chat as recall reads it. */
  current(): RecallChat {
    const { record } = this.#sync;
    return { userId: record.userId, chatId: record.id, source: this.#sync.nodes(), head: this.#sync.head };
  }

  /** The chat's stats, with the last context's usage. */
  stats(): ChatStats {
    const nodes = this.#sync.nodes();
    const head = this.#sync.head;
    const profile = this.#profile;
    return chatStats(
      {
        messages: nodes.size,
        branchMessages: head < 0 ? 0 : nodes.engine.depth(nodes.tree, head) + 1,
        model: profile.name,
        modelInferredFrom: profile.inferredFrom ?? null,
        contextWindow: profile.contextWindow,
        counter: this.#counter.name,
      },
      {
        usage: this.#lastUsage,
        evicted: this.#lastEvicted,
        calibration: calibrationStats(this.#ctx.calibration, this.#lastModel, this.#sync),
        providerCount: this.#lastCount,
      },
      this.summaries.stats(nodes),
    );
  }

  #build(
    options: BuildOptions | undefined,
    planned: PlannedBuild | undefined,
    how: BuildHow,
  ): ContextWindow | Promise<ContextWindow> {
    const factor = how.factor ?? 1;
    if (options === undefined && planned === undefined && factor === 1) {
      // A build with no options (a server's usual one) plans from the chat's settings alone: its
      // plan is kept, and made again when the model's calibration moves.
      const now = this.#calibrated(this.#profile.name);
      if (now !== this.#plannedFactor) {
        this.plan = undefined;
        this.#plannedFactor = now;
      }
      planned = this;
    }
    // A model's factor by script, read when a plan is made (a kept plan reads none: no closure
    // made for it), at least `factor` for a build made again smaller (see countedBuild).
    const calibrate =
      planned?.plan !== undefined
        ? undefined
        : factor > 1
          ? (name: string) => Math.max(factor, this.#calibrated(name))
          : (name: string) => this.#calibrated(name);
    const { record } = this.#sync;
    const context = buildChatContext(
      this.#ctx,
      {
        nodes: this.#sync.nodes(),
        head: how.at ?? this.#sync.head,
        counter: this.#counter,
        profile: this.#profile,
        system: record.system,
        options: this.#options,
        summaryPresentation: this.summaries.presentation,
        toolResults: this.#toolResults,
        recallChat: this,
        calibrate,
        sendsReasoning: how.sdk === true,
        userId: record.userId,
        chatId: record.id,
      },
      options,
      planned,
    );
    return context instanceof Promise ? context.then((c) => this.#built(c)) : this.#built(context);
  }

  /** A model's calibration factor for this chat's texts: the script read only once a provider reported for it. */
  #calibrated(name: string): number {
    const calibration = this.#ctx.calibration;
    return calibration.knows(name) ? calibration.factor(name, scriptClass(recentTexts(this.#sync))) : 1;
  }

  /**
   * `chat.observeUsage(context, reported)`: the provider's count of a request this chat built,
   * learned by its Loom for the request's model and script. @throws INVALID_ARGUMENT
   */
  observeUsage(context: object, reported: unknown): void {
    observeUsage(this.#ctx.calibration, context, reported);
  }

  #built(context: ContextWindow): ContextWindow {
    this.#lastModel = context.model;
    this.#lastUsage = keepUsage(this.#lastUsage, context.usage);
    this.#lastEvicted = context.evicted;
    const listener = this.#ctx.onCompaction;
    if (listener && (context.cleared.count > 0 || this.#cleared)) {
      this.#cleared ??= new ClearedSince();
      this.#cleared.hear(context, this.#sync, listener);
    }
    return context;
  }
}
