import type { Message } from "../message.js";
import type { TokenCounter } from "../tokens/index.js";
import {
  conversationBudget,
  planSummary,
  summaryMessage,
  writeSummaryText,
  type BuiltUsage,
  type SummarizedTree,
  type SummaryJob,
} from "./job.js";
import type { SummaryCounts } from "./ledger.js";
import { resolveSummaries, resolveSummaryPolicy, type SummaryLevel } from "./policy.js";
import type { SummaryPresentation } from "./present.js";
import { checkCallSummaries, presentationOf, writerOf, type KeptSummaries } from "./settings.js";
import type { SummaryWriter } from "./job.js";
import { summaryThreshold } from "./run-plan.js";
import { DEFAULT_SUMMARY_PROMPT } from "./prompt.js";

/**
 * What ChatSummaries needs of its chat: its queue, its build, its tree and head, and a way to
 * store a summary (the chat writes it through to the store and links it). Declared here: the
 * summary room reaches the chat and the store through this alone.
 */
export interface SummarizingChat<C extends BuiltUsage> {
  /** Runs a step in the chat's queue. */
  run<T>(step: () => T | Promise<T>): Promise<T>;
  /** Builds the context as things are (in the queue); a promise only when it must wait (recall). */
  build(): C | Promise<C>;
  nodes(): SummarizedTree;
  head(): number;
  /** Stores and links the summary `make` returns (null: none). */
  add(make: (nodes: SummarizedTree, id: number) => Message | null): Promise<Message | null>;
  /** Told before a summary is written and once it is stored (what throws fails the call). */
  heard?(notice: SummaryNotice): void;
}

/** Why a summary is made: the trigger in force, passed in a build, or `chat.compact()`. */
export type SummaryReason = "trigger" | "compact";

/**
 * What a chat is told of a summary: about to be written (`summary` undefined), then stored (`summary`: it, or null when
 * it no longer applied).
 */
export interface SummaryNotice {
  reason: SummaryReason;
  first: number;
  last: number;
  /** Tokens of the run as sent today. */
  tokens: number;
  summary?: Message | null;
  source?: "llm" | "extractive";
  fallback?: string;
}

/** Summary counts of a chat for `chat.stats()`, with the summarizer's answers not used. */
export interface SummaryStats extends SummaryCounts {
  fallbacks: number;
}

/** A build, and the summary it calls for (null: none). */
interface Planned<C> {
  context: C;
  job: SummaryJob | null;
}

/** A chat's summary state: the settings in force, one summary at a time, the fallbacks counted. */
export class ChatSummaries {
  readonly #loom: SummaryLevel;
  readonly #chat: KeptSummaries | undefined;
  readonly #counter: TokenCounter;
  /** A summary is being written for this chat (outside its queue). */
  #summarizing = false;
  /** That summary's writing, until it is stored. */
  #writing: Promise<unknown> | null = null;
  /** Summarizer answers replaced by the extractive summary. */
  fallbacks = 0;

  constructor(loom: SummaryLevel, chat: KeptSummaries | undefined, counter: TokenCounter) {
    this.#loom = loom;
    this.#chat = chat;
    this.#counter = counter;
  }

  /**
   * The chat's own (set at its creation, from the Loom's when not given): a stored summary's tokens were counted as it
   * sends it.
   */
  get presentation(): SummaryPresentation {
    return presentationOf(this.#chat);
  }

  /** The chat's summary counts: what its summaries save, and the fallbacks. O(summaries). */
  stats(nodes: SummarizedTree): SummaryStats {
    return { ...nodes.summaries.counts(), fallbacks: this.fallbacks };
  }

  /**
   * Builds; when the trigger in force fires, plans a run in the queue, writes its summary
   * outside it (a summarizer may take seconds; appends go on meanwhile), then, back in the
   * queue, stores and attaches it if the run still applies, and builds again. `options` are
   * the build's (only `summaries` is read here; `what` names them in errors).
   */
  build<C extends BuiltUsage>(options: unknown, what: string, chat: SummarizingChat<C>): Promise<C> {
    let call: SummaryLevel;
    try {
      const given =
        options === null || typeof options !== "object" ? undefined : (options as { summaries?: unknown }).summaries;
      call = checkCallSummaries(given, `${what}.summaries`);
    } catch (error) {
      return Promise.reject(error);
    }
    // No await on the way when the build is synchronous and nothing is to be summarized (most builds).
    const planned = (context: C): Planned<C> => {
      if (this.#summarizing) return { context, job: null };
      const policy = resolveSummaryPolicy(call, this.#chat, this.#loom);
      // What the context sends, its tool results cut or cleared, is what passes the trigger or not:
      // older results a context clears need no summary to leave room.
      const budget = conversationBudget(context);
      const sent = policy !== null && context.usage.conversation >= summaryThreshold(policy, budget);
      const job = sent ? planSummary(chat.nodes(), chat.head(), policy, budget) : null;
      if (job) this.#summarizing = true; // one at a time: a concurrent build does not plan the same run
      return { context, job };
    };
    return chat
      .run(() => {
        const built = chat.build();
        return built instanceof Promise ? built.then(planned) : planned(built);
      })
      .then(async (first) => {
        if (!first.job) return first.context;
        await this.#summarize(first.job, chat, "trigger", writerOf(this.#loom));
        return chat.run(() => chat.build());
      });
  }

  /**
   * `chat.compact()`: a summary now, by the settings in force (the chat's, else the Loom's, else
   * the defaults) as if the trigger had fired, whatever it is (even "manual"): the run its selection takes (the oldest
   * share of the conversation, or all but the newest messages), never the newest user turn. With `instructions`, told
   * to the summarizer beside its prompt. The summary stored, or null when there is nothing to summarize (or it no
   * longer applied). After a summary being written.
   */
  async compact<C extends BuiltUsage>(
    instructions: string | undefined,
    chat: SummarizingChat<C>,
  ): Promise<Message | null> {
    while (this.#writing) await this.#writing.catch(() => undefined);
    const job = await chat.run(async () => {
      if (this.#summarizing) return null;
      const { policy } = resolveSummaries(this.#chat, this.#loom);
      const context = await chat.build();
      const now = planSummary(
        chat.nodes(),
        chat.head(),
        { ...policy, trigger: { tokens: 1 } },
        conversationBudget(context),
      );
      if (now) this.#summarizing = true;
      return now;
    });
    if (!job) return null;
    const writer = writerOf(this.#loom);
    if (instructions === undefined) return this.#summarize(job, chat, "compact", writer);
    return this.#summarize(job, chat, "compact", {
      ...writer,
      prompt: `${writer.prompt ?? DEFAULT_SUMMARY_PROMPT}\n\n${instructions}`,
    });
  }

  /**
   * Writes a planned summary outside the queue, then stores it in the queue; returns it (null: it no longer applied).
   */
  #summarize<C extends BuiltUsage>(
    job: SummaryJob,
    chat: SummarizingChat<C>,
    reason: SummaryReason,
    settings: SummaryWriter,
  ): Promise<Message | null> {
    const writing = (async () => {
      try {
        const run = { reason, first: job.first, last: job.last, tokens: job.replaced };
        chat.heard?.(run);
        const text = await writeSummaryText(job, this.#counter, settings);
        if (text.fallback) this.fallbacks++;
        return await chat.run(async () => {
          const presentation = this.presentation;
          const summary = await chat.add((nodes, id) =>
            summaryMessage(nodes, chat.head(), job, text.text, id, this.#counter, presentation),
          );
          chat.heard?.({ ...run, summary, source: text.source, ...(text.fallback ? { fallback: text.fallback } : {}) });
          return summary;
        });
      } finally {
        this.#summarizing = false;
        this.#writing = null;
      }
    })();
    this.#writing = writing;
    return writing;
  }
}
