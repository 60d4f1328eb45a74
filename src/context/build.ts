import { CtxloomError, checkInteger, checkKeys, checkOptions, describe } from "../errors.js";
import type { Engine } from "../engine/types.js";
import { budgetFor, type Budget, type BudgetSplit } from "../models/budget.js";
import { checkHistoryLimits, getModelProfile, historyLimitsOf, type HistoryLimits, type ModelInput, type ModelProfile } from "../models/profiles.js";
import { REPLY_PRIMING, TOKENS_PER_MESSAGE, messageTokens } from "../tokens/chat.js";
import type { TokenCounter } from "../tokens/types.js";
import type { Message } from "../tree/message.js";
import { toAnthropic, toOpenAI, toTranscript, type AnthropicMessage, type OpenAIMessage } from "./format.js";
import { truncateToChars, truncateToTokens } from "./truncate.js";

/** Options of `chat.buildContext()` and `chat.buildPrompt()`. */
export interface BuildOptions {
  /** System prompt; default: the chat's own (`create({ system })`). Truncated to its slice. */
  system?: string;
  /** Memory text (facts, retrieved notes), sent as a second system message. Truncated to its slice. */
  memory?: string;
  /** The user's new message, when it is not appended to the chat: sent last, never truncated. */
  input?: string;
  /** Model whose window sets the budget; default: the chat's. Token counts stay the chat model's. */
  model?: string | ModelInput;
  /** At most this many of the branch's newest messages are considered (the newest user turn and CRITICAL ones come from anywhere). */
  maxMessages?: number;
  /** Budget fractions for this call (default: the chat's, else seed 001's 25/20/40/10/5). */
  budget?: Partial<BudgetSplit>;
  /** Apply seed 001's history limits (turns, characters per turn, memory characters): true for the model's size class, or your own. Default: the chat's setting, else off. */
  historyLimits?: boolean | Partial<HistoryLimits>;
  /** "openai" (default) or "anthropic" (system apart, roles alternating, the user first). */
  format?: ContextFormat;
}

/** The API shapes a context can be built in. */
export type ContextFormat = "openai" | "anthropic";

/** The message type of each format. */
export interface FormatMessages {
  openai: OpenAIMessage;
  anthropic: AnthropicMessage;
}

/** The format a list of messages is in (both: either). */
export type FormatOfMessages<M> = [M] extends [OpenAIMessage] ? "openai" : [M] extends [AnthropicMessage] ? "anthropic" : ContextFormat;

/**
 * The context built in format F; for a union ("openai" | "anthropic" chosen at run time),
 * a union of contexts told apart by their `format` field.
 */
export type ContextWindowOf<F extends ContextFormat> = F extends ContextFormat ? ContextWindow<FormatMessages[F]> : never;

/** The format options ask for: their `format`, "openai" when it is left out (or may be). */
export type FormatOf<O> = O extends undefined
  ? "openai"
  : "format" extends keyof O
    ? (undefined extends O["format" & keyof O] ? "openai" : never) | Extract<O["format" & keyof O], ContextFormat>
    : "openai";

/** What `buildContext(options)` returns for options of type O. */
export type ContextWindowFor<O extends BuildOptions | undefined> = ContextWindowOf<FormatOf<O>>;

/** Tokens per part of a built context. `total` is the cookbook count of `messages` and never exceeds `limit`. */
export interface Usage {
  system: number;
  memory: number;
  conversation: number;
  input: number;
  total: number;
  /** The effective window less the reserve: what a request may use. */
  limit: number;
}

/** What `chat.buildContext()` returns. */
export interface ContextWindow<M = OpenAIMessage | AnthropicMessage> {
  /** The format of `messages`: narrow on it when the format was chosen at run time. */
  format: FormatOfMessages<M>;
  /** Ready for the API: OpenAI chat messages (the `openai` package's ChatCompletionMessageParam[]), or Anthropic messages (MessageParam[], with `system` apart). */
  messages: M[];
  /** The system text sent (truncated to its slice; for Anthropic it also holds memory and system messages of the chat). */
  system: string;
  /** The memory text sent (truncated to its slice). */
  memory: string;
  /** The input sent, if any. */
  input: string | null;
  usage: Usage;
  /** The chat messages kept, oldest first. */
  conversation: Message[];
  /** Messages recalled from older exchanges (empty: recall is not enabled). */
  recalled: Message[];
  /** Messages of the branch considered and not sent. */
  evicted: number;
  /** Whether a summary replaced older messages (false: summaries are not enabled). */
  compressed: boolean;
  /** The model and budget the context was built for. */
  model: string;
  budget: Budget;
}

/** What the builder needs of a chat. */
export interface ContextSource {
  engine: Engine;
  tree: number;
  /** -1 for an empty chat. */
  head: number;
  counter: TokenCounter;
  profile: Readonly<ModelProfile>;
  system: string | null;
  budget: Partial<BudgetSplit> | undefined;
  historyLimits: boolean | Partial<HistoryLimits> | undefined;
  message(id: number): Message;
}

/** The options buildContext knows; any other key is refused, naming the closest. */
export const BUILD_KEYS = ["system", "memory", "input", "model", "maxMessages", "budget", "historyLimits", "format"] as const;

/**
 * Builds the context of one request (seed 001's build_context): truncates system and
 * memory to their slices, lets unused slices flow to the conversation, selects the
 * conversation in the engine (one call: walk, priorities, tool units), and formats.
 * Nothing is tokenized but the system, memory and input texts of this call.
 */
export function buildContext<O extends BuildOptions | undefined = undefined>(source: ContextSource, options?: O): ContextWindowFor<O> {
  return build(source, options) as ContextWindowFor<O>;
}

function build(source: ContextSource, options: BuildOptions | undefined): ContextWindow {
  const o = checkOptions<BuildOptions>(options, "buildContext(options)");
  if ("recall" in o) throw new CtxloomError("INVALID_ARGUMENT", "recall is not available yet in this version of ctxloom; leave it out.");
  checkKeys(o, BUILD_KEYS, "buildContext(options)");
  const text = (value: unknown, what: string): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string") throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a string; got ${describe(value)}.`);
    return value;
  };
  const systemText = text(o.system, "system") ?? source.system ?? "";
  let memoryText = text(o.memory, "memory") ?? "";
  const input = text(o.input, "input");
  if (input !== undefined && input.length === 0) throw new CtxloomError("INVALID_CONTENT", "input must not be empty; leave it out instead.");
  const maxMessages = o.maxMessages === undefined ? 0 : checkInteger(o.maxMessages, "maxMessages", 1, 0x7fffffff);
  const format = o.format ?? "openai";
  if (format !== "openai" && format !== "anthropic") {
    throw new CtxloomError("INVALID_ARGUMENT", `format must be "openai" or "anthropic"; got ${describe(format)}.`);
  }
  const profile = o.model === undefined ? source.profile : getModelProfile(o.model);
  const budget = budgetFor(profile, { split: o.budget !== undefined ? o.budget : source.budget });
  const limits = resolveLimits(o.historyLimits !== undefined ? o.historyLimits : source.historyLimits, profile);
  const counter = source.counter;
  const limit = budget.effective - budget.reserve;

  // System and memory: truncated to their slices, each sent as its own message.
  const cost = (role: Message["role"], content: string) => messageTokens(counter, { role, content });
  const overhead = (role: Message["role"]) => cost(role, "");
  const fitted = (role: Message["role"], content: string, slice: number) =>
    content.length === 0 ? "" : truncateToTokens(content, slice - overhead(role), counter);
  const system = fitted("system", systemText, budget.system);
  if (limits) memoryText = truncateToChars(memoryText, limits.memoryMaxChars);
  const memory = fitted("system", memoryText, budget.memory);
  const systemTokens = system ? cost("system", system) : 0;
  const memoryTokens = memory ? cost("system", memory) : 0;
  if (input !== undefined && counter.atLeast) {
    // A linear bound first: an input that cannot fit is refused before it is counted.
    const least = TOKENS_PER_MESSAGE + counter.atLeast(input);
    if (least > limit - REPLY_PRIMING) {
      throw new CtxloomError(
        "MESSAGE_TOO_LARGE",
        `The input (at least ${least} tokens) does not fit ${profile.name}'s window (limit ${limit} tokens). ` +
          `Split or summarize the input, or use a model with a larger window.`,
      );
    }
  }
  const inputTokens = input === undefined ? 0 : cost("user", input);

  // What the other parts leave (their unused slices included) goes to the conversation.
  const available = limit - REPLY_PRIMING - systemTokens - memoryTokens - inputTokens;
  if (available < 0) {
    throw new CtxloomError(
      "MESSAGE_TOO_LARGE",
      `The input (${inputTokens} tokens) does not fit ${profile.name}'s window with the system prompt and memory ` +
        `(limit ${limit} tokens). Split or summarize the input, shorten the system prompt or memory, or use a model with a larger window.`,
    );
  }
  let conversation: Message[] = [];
  let conversationTokens = 0;
  let evicted = 0;
  if (source.head >= 0) {
    const windowCap = limits ? Math.min(maxMessages || Infinity, 2 * limits.maxTurns) : maxMessages;
    // History limits cut texts after the selection, and a cut text (with its "…") can cost
    // more than the whole one did: the selection is then redone with that much less, until
    // the cut conversation fits. Each round asks for at least one token less, and rounds
    // are rare (a cut adds a token or two), so this ends quickly.
    let ask = available;
    for (;;) {
      const selection = source.engine.select(source.tree, source.head, ask, windowCap === Infinity ? 0 : windowCap);
      if (!selection.fits) {
        throw new CtxloomError(
          "MESSAGE_TOO_LARGE",
          `The newest user turn and the chat's critical messages need ${selection.forcedTokens} tokens` +
            (ask < available ? ` (more once cut to the history limits)` : ``) + `, but only ` +
            `${available} are left for the conversation in ${profile.name}'s window after the system prompt, memory and input. ` +
            `Split or summarize the message, lower the priority of old critical messages, or use a model with a larger window.`,
        );
      }
      conversation = Array.from(selection.ids, (id) => source.message(id));
      conversationTokens = selection.keptTokens;
      evicted = selection.evicted;
      if (!limits) break;
      conversation = conversation.map((m) => {
        if (m.role === "tool" || m.content.length <= limits.maxCharsPerTurn) return m;
        const cut = { ...m, content: truncateToChars(m.content, limits.maxCharsPerTurn) };
        cut.tokens = messageTokens(counter, cut);
        conversationTokens += cut.tokens - m.tokens;
        return cut;
      });
      if (conversationTokens <= available) break;
      ask -= conversationTokens - available;
    }
  }

  const inputMessage = input === undefined ? [] : [{ role: "user" as const, content: input }];
  const usage: Usage = {
    system: systemTokens,
    memory: memoryTokens,
    conversation: conversationTokens,
    input: inputTokens,
    total: REPLY_PRIMING + systemTokens + memoryTokens + conversationTokens + inputTokens,
    limit,
  };
  const base = { memory, input: input ?? null, usage, conversation, recalled: [], evicted, compressed: false, model: profile.name, budget };

  if (format === "anthropic") {
    // Anthropic's first message is the user's. What comes before the first user message is
    // dropped, except CRITICAL messages, which move into the system text as a transcript.
    const chatSystem = conversation.filter((m) => m.role === "system");
    let rest = conversation.filter((m) => m.role !== "system");
    const first = rest.findIndex((m) => m.role === "user");
    const lead = first < 0 && inputMessage.length === 0 ? rest : rest.slice(0, first < 0 ? rest.length : first);
    const keptLead = lead.filter((m) => m.priority === "critical");
    const droppedTokens = lead.reduce((sum, m) => sum + (m.priority === "critical" ? 0 : m.tokens), 0);
    rest = rest.slice(lead.length);
    const { messages } = toAnthropic([...rest, ...inputMessage]);
    if (messages.length === 0) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        "An Anthropic request needs a user message, and this context has none: append one or pass { input }.",
      );
    }
    usage.conversation -= droppedTokens;
    usage.total -= droppedTokens;
    const systemText = [system, memory, ...chatSystem.map((m) => m.content), keptLead.length ? toTranscript(keptLead) : ""];
    return {
      ...base,
      format: "anthropic",
      messages,
      system: systemText.filter((t) => t.length > 0).join("\n\n"),
      conversation: [...chatSystem, ...keptLead, ...rest].sort((a, b) => a.id - b.id),
      evicted: evicted + lead.length - keptLead.length,
    };
  }
  const messages: OpenAIMessage[] = [];
  if (system) messages.push({ role: "system", content: system });
  if (memory) messages.push({ role: "system", content: memory });
  for (const m of conversation) messages.push(toOpenAI(m));
  for (const m of inputMessage) messages.push(m);
  return { ...base, format: "openai", messages, system };
}

/** A context built in the OpenAI format as one formatted string (seed 001's build_prompt, seed 004's formatted context). */
export function formatPrompt(context: ContextWindow): string {
  const parts: Pick<Message, "role" | "content" | "name" | "toolCalls" | "toolCallId">[] = [];
  if (context.system) parts.push({ role: "system", content: context.system });
  if (context.memory) parts.push({ role: "system", content: context.memory });
  parts.push(...context.conversation);
  if (context.input !== null) parts.push({ role: "user", content: context.input });
  return toTranscript(parts);
}

function resolveLimits(setting: boolean | Partial<HistoryLimits> | undefined, profile: ModelProfile): Readonly<HistoryLimits> | undefined {
  if (setting === undefined) return undefined;
  const checked = checkHistoryLimits(setting);
  if (checked === false) return undefined;
  return checked === true ? historyLimitsOf(profile) : { ...historyLimitsOf(profile), ...checked };
}
