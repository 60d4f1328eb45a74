// A context's view of the chat's reasoning and of providers' compactions: what a request sends
// of an assistant message's reasoning (its newest turns' only, `reasoningTurns`, and what the
// format takes back) and of a compaction (to the provider that made it only, where it stands
// for everything before it), with what each message then costs, for the selection to count.
// Nothing in the chat changes.
//
// Rules of the providers, kept whatever `reasoningTurns` says: the turn still under way (the
// assistant messages after the newest user message) keeps its reasoning, as Anthropic requires
// of thinking blocks during tool use and OpenAI of the reasoning items that go with their
// function calls. Walked newest first over the entries a selection could reach. O(W).
import { FLAG_SUMMARY, ROLE_TOOL, ROLE_USER } from "../engine/types.js";
import type { ContentPart, Message } from "../message.js";
import { hasRichPart } from "../parts.js";
import { messageTokens } from "../tokens/chat.js";
import { imageRuleFor } from "../tokens/parts.js";
import type { ContextView, ViewKind } from "./view-source.js";
import type { ContextFormat, ContextSource } from "./types.js";

/** A build's view of reasoning and compactions, merged with its tool-result view. */
export interface PartsView {
  /** Every message sent otherwise than the chat holds it (the tool-result view's included), or null. */
  view: ContextView | null;
  /**
   * The newest message holding a compaction this format sends back (-1: none): the provider
   * reads nothing before it, so nothing before it is selected but what a selection forces.
   */
  boundary: number;
  /** Entries of the summarized path from the head back to `boundary`, both counted (0: no boundary). */
  horizon: number;
}

/** No view of reasoning nor compactions over no tool-result view (shared: read only). */
const NO_PARTS: PartsView = Object.freeze({ view: null, boundary: -1, horizon: 0 });

/** The parts of a message sent in `format`, its reasoning kept or not (see PartsView). */
export function partsFor(parts: readonly ContentPart[], format: ContextFormat, reasoning: boolean): ContentPart[] {
  return parts.filter((p) => {
    switch (p.type) {
      case "reasoning":
        // The OpenAI format sends none, but keeps the kept turns' in the conversation, for the AI SDK and LangChain.
        return (
          reasoning &&
          (format === "openai" || (format === "anthropic" ? p.signature !== undefined : p.item !== undefined))
        );
      case "redacted-reasoning":
        return reasoning && format !== "responses";
      case "compaction":
        return (
          (format === "anthropic" && p.provider === "anthropic") || (format === "responses" && p.provider === "openai")
        );
      default:
        return true;
    }
  });
}

/**
 * The view of a build in `format` whose conversation has `room` tokens, over `tools` (the tool
 * results' view, or null), keeping the reasoning of the `turns` newest turns that hold any
 * (`input`: the request adds a user message, so no turn is under way).
 */
export function partsView(
  source: ContextSource,
  format: ContextFormat,
  turns: number,
  input: boolean,
  room: number,
  tools: ContextView | null,
  sent = false,
): PartsView {
  const tv = source.toolViews;
  const none: PartsView = tools === null ? NO_PARTS : { view: tools, boundary: -1, horizon: 0 };
  if (!tv || source.head < 0 || (!tv.reasoning && !tv.compactions)) return none;
  const { engine: e, tree: t, head } = source;
  const provider = format === "anthropic" ? "anthropic" : format === "responses" ? "openai" : null;
  const rule = imageRuleFor(source.profile.name);
  const count = (m: Message) => messageTokens(source.counter, m, rule);
  const toolCosts = tools ? new Map<number, number>() : null;
  if (tools) for (let k = 0; k < tools.ids.length; k++) toolCosts!.set(tools.ids[k]!, tools.tokens[k]!);
  const costOf = (id: number) => toolCosts?.get(id) ?? e.tokens(t, id);
  const keeping = `${format}:reasoning${sent ? ":sent" : ""}`;
  const leaving = format;

  const made = new Map<number, { message: Message; tokens: number }>();
  let open = !input; // in the turn under way (before the newest user message, walking back)
  let sawUser = false;
  let rank = 0; // turns holding reasoning seen so far, the one being walked included
  let counted = false; // whether the turn being walked holds reasoning (and so counts in rank)
  let boundary = -1;
  let horizon = 0;
  let spent = 0;
  let seen = 0;
  walk: for (let max = 256; ; max *= 2) {
    const n = e.walkSummarized(t, head, max);
    const ids = e.ids.slice(0, n - seen); // the entries not seen yet, oldest first
    for (let i = ids.length - 1; i >= 0; i--) {
      const id = ids[i]!;
      const at = seen + ids.length - i; // entries from the head, this one counted
      if (e.flags(t, id) & FLAG_SUMMARY) {
        spent += e.tokens(t, id);
      } else if (e.role(t, id) === ROLE_USER) {
        open = false;
        sawUser = true;
        counted = false;
        spent += costOf(id);
      } else {
        const reasoning = tv.reasoning && e.role(t, id) !== ROLE_TOOL && tv.reasoningIn(id);
        if (reasoning && !counted) {
          counted = true;
          rank++;
        }
        const compaction = provider !== null && tv.compactionIn(id, provider);
        if (reasoning || (tv.compactions && tv.compactionIn(id))) {
          const keep = open || rank <= turns;
          const base = tools?.messages.get(id);
          const kind = keep ? keeping : leaving;
          const out = base
            ? viewOf(base, format, keep, count, sent)
            : tv.cache.parts(kind, id, () => viewOf(source.message(id), format, keep, count, sent));
          if (out) made.set(id, out);
          spent += out ? out.tokens : costOf(id);
        } else spent += costOf(id);
        if (compaction) {
          boundary = id;
          horizon = at;
          break walk; // the provider reads nothing before it
        }
      }
      if (spent > room) break walk;
    }
    seen = n;
    if (n < max) break;
  }
  if (boundary >= 0 && !sawUser) {
    // The newest user message, which every selection keeps, is before the compaction: the
    // provider reads it there (it is in the compaction), so it is sent nowhere and costs nothing.
    let u = e.parent(t, boundary);
    while (u >= 0 && e.role(t, u) !== ROLE_USER) u = e.parent(t, u);
    if (u >= 0) made.set(u, { message: { ...source.message(u), tokens: 0 }, tokens: 0 });
  }
  if (made.size === 0 && boundary < 0) return none;
  return { view: merged(tools, made), boundary, horizon };
}

/**
 * A selection's conversation from the compaction `boundary` on, when it kept it (else null):
 * what the selection forced from before it (the newest user message, CRITICAL ones) is in it and
 * left out, but the system messages (the format's system text, or items the provider reads
 * before it). Gives the tokens left out, and how many messages of the branch the compaction
 * carries that the selection counted as evicted.
 */
export function fromCompaction(
  source: ContextSource,
  boundary: number,
  conversation: Message[],
): { conversation: Message[]; tokens: number; carried: number } | null {
  const at = conversation.findIndex((m) => m.id === boundary);
  if (at < 0) return null;
  const before = conversation.slice(0, at);
  let tokens = 0;
  for (const m of before) if (m.role !== "system") tokens += m.tokens;
  const carried = source.engine.depth(source.tree, boundary) - before.length;
  return { conversation: [...before.filter((m) => m.role === "system"), ...conversation.slice(at)], tokens, carried };
}

/**
 * Message `m` as `format` sends it, or null when that is as the chat holds it. Its `tokens` are
 * what it costs there: in the OpenAI format, which sends neither reasoning nor compactions, its
 * count without them, though it keeps the kept turns' reasoning for the AI SDK and LangChain,
 * which send it (`sent`: counted then).
 */
function viewOf(
  m: Message,
  format: ContextFormat,
  reasoning: boolean,
  count: (m: Message) => number,
  sent: boolean,
): { message: Message; tokens: number } | null {
  if (!m.parts) return null;
  const parts = partsFor(m.parts, format, reasoning);
  const counted = format === "openai" && !sent ? partsFor(m.parts, format, false) : parts;
  if (parts.length === m.parts.length && counted.length === m.parts.length) return null;
  const message: Message = withParts(m, parts);
  message.tokens = counted === parts ? count(message) : count(withParts(m, counted));
  return { message, tokens: message.tokens };
}

/** `m` with `parts` (none when they hold text only: its content is their text). */
function withParts(m: Message, parts: ContentPart[]): Message {
  const out: Message = { ...m };
  if (hasRichPart(parts)) out.parts = parts;
  else delete out.parts;
  return out;
}

/** One view of both: the tool-result view's messages, those `made` here over them. */
function merged(
  tools: ContextView | null,
  made: Map<number, { message: Message; tokens: number }>,
): ContextView | null {
  if (made.size === 0) return tools;
  if (!tools) {
    // (The usual case, and a long one when every answer reasons: no map is copied.)
    const ids = new Int32Array(made.size);
    const tokens = new Int32Array(made.size);
    const messages = new Map<number, Message>();
    const kinds = new Map<number, ViewKind>();
    let k = 0;
    for (const [id, out] of made) {
      ids[k] = id;
      tokens[k++] = out.tokens;
      messages.set(id, out.message);
      kinds.set(id, "parts");
    }
    return { ids, tokens, messages, kinds };
  }
  const messages = new Map(tools.messages);
  const kinds = new Map(tools.kinds);
  const costs = new Map<number, number>();
  for (let k = 0; k < tools.ids.length; k++) costs.set(tools.ids[k]!, tools.tokens[k]!);
  for (const [id, out] of made) {
    messages.set(id, out.message);
    if (!kinds.has(id)) kinds.set(id, "parts");
    costs.set(id, out.tokens);
  }
  const ids = Int32Array.from(costs.keys());
  return { ids, tokens: Int32Array.from(ids, (id) => costs.get(id)!), messages, kinds };
}
