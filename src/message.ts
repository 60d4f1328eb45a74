// The base of the library: what a message is, its limits and its validation.
// It imports only errors: every other room may import it, the engine takes its numeric codes.
import { CtxloomError, checkKeys, describe } from "./errors.js";
import { checkParts, copyParts, hasRichPart, partsText, type ContentPart } from "./parts.js";
import { checkContent, checkLabel, checkMessageName } from "./text-checks.js";
import { checkToolCalls, type ToolCall } from "./tool-calls.js";

export { MESSAGE_NAME, checkContent, checkLabel, checkWellFormed, loneIn, loneSurrogate } from "./text-checks.js";
export { MAX_ARGUMENT_DEPTH, TOOL_NAME, checkToolCalls, nestsDeeper, type ToolCall } from "./tool-calls.js";

export type {
  CompactionPart,
  CompactionProvider,
  ContentPart,
  FilePart,
  ImagePart,
  ReasoningPart,
  RedactedReasoningPart,
  TextPart,
} from "./parts.js";

/** Who a message is from: the system prompt, the user, the model, or a tool's result. */
export type Role = "system" | "user" | "assistant" | "tool";
/** The roles, in the order of their numeric codes in the engine. */
export const ROLES = ["system", "user", "assistant", "tool"] as const satisfies readonly Role[];
/** How much a message matters when a context is over budget: the lowest priorities are left out first. */
export type Priority = "low" | "normal" | "high" | "critical";
/** The priorities, lowest first, in the order of their numeric codes in the engine. */
export const PRIORITIES = ["low", "normal", "high", "critical"] as const satisfies readonly Priority[];

/** The most tokens anything may count (a message, a window, a model's context): 2^30, so sums stay in 32 bits. */
export const MAX_TOKENS = 2 ** 30;
/** The most messages a walk, a window or a context may be asked for (the engines' 32-bit counts). */
export const MAX_MESSAGES = 0x7fffffff;

/** A message of a chat, as stored. Ids count up from 0 in creation order within the chat. */
export interface Message {
  /** The message's id in its chat: 0, 1, 2, ... in creation order. */
  id: number;
  /** The previous message on its branch; null for a root. */
  parentId: number | null;
  /** Who the message is from. */
  role: Role;
  /** The text: a string input, or the text parts of a content list joined with "\n" ("" when they hold none). */
  content: string;
  /** How much the message matters when a context is over budget. */
  priority: Priority;
  /** Tokens this message costs in a request (cookbook rules), counted once at append. */
  tokens: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** "message" for a message appended to the chat, "summary" for a summary standing for a run of its ancestors. */
  kind: "message" | "summary";
  /** An optional name for the author (a tool's name on a tool result). */
  name?: string;
  /** The tools an assistant message called. */
  toolCalls?: ToolCall[];
  /** On a tool result: the id of the tool call it answers. */
  toolCallId?: string;
  /**
   * The content list, when the input had a part other than text (image, file, reasoning, compaction): every part, text
   * ones included, in order.
   */
  parts?: ContentPart[];
  /** For a summary (kind "summary"): the oldest and newest ids of the run of ancestors it stands for. */
  covers?: { first: number; last: number };
}

/** What `chat.append` takes. */
export interface MessageInput {
  /** Who the message is from. */
  role: Role;
  /**
   * A text, or a list of parts: text, image and file (user), reasoning, redacted-reasoning, compaction and file
   * (assistant), text and image (tool).
   */
  content: string | ContentPart[];
  /** Default "normal"; "critical" for a system message. */
  priority?: Priority;
  /** An optional name for the author (a tool's name on a tool result). */
  name?: string;
  /** The tools an assistant message called. */
  toolCalls?: ToolCall[];
  /** On a tool result (role "tool"): the id of the tool call it answers. */
  toolCallId?: string;
}

/** The keys a MessageInput may have: any other is refused (a misspelled `tool_calls` is never dropped silently). */
export const MESSAGE_INPUT_KEYS = ["role", "content", "priority", "name", "toolCalls", "toolCallId"] as const;
/** The keys a stored Message may have. */
export const MESSAGE_KEYS = [
  "id",
  "parentId",
  "role",
  "content",
  "priority",
  "tokens",
  "createdAt",
  "kind",
  "name",
  "toolCalls",
  "toolCallId",
  "covers",
  "parts",
] as const;

/** The optional fields of a message (its name, tool calls, tool call id and content parts), kept off the hot path. */
export interface MessageExtras {
  /** An optional name for the author (a tool's name on a tool result). */
  name?: string;
  /** The tools an assistant message called. */
  toolCalls?: ToolCall[];
  /** On a tool result: the id of the tool call it answers. */
  toolCallId?: string;
  /** The content list, when the message has a part other than text. */
  parts?: ContentPart[];
}

/**
 * A validated message input: role, content (its text) and priority always set; `parts` when it has a part other than
 * text.
 */
export type CheckedInput = { role: Role; content: string; priority: Priority } & MessageExtras;

export const roleCode = (role: Role): number => ROLES.indexOf(role);
export const priorityCode = (priority: Priority): number => PRIORITIES.indexOf(priority);

export function checkRole(role: unknown): Role {
  if (!ROLES.includes(role as Role)) {
    throw new CtxloomError("INVALID_ROLE", `role must be one of ${ROLES.join(", ")}; got ${describe(role)}.`);
  }
  return role as Role;
}

export function checkPriority(priority: unknown): Priority {
  if (!PRIORITIES.includes(priority as Priority)) {
    throw new CtxloomError(
      "INVALID_PRIORITY",
      `priority must be one of ${PRIORITIES.join(", ")} (or left out for the default); got ${describe(priority)}.`,
    );
  }
  return priority as Priority;
}

const checkText = (value: unknown, what: string): string => checkLabel(value, what, "INVALID_TOOL_CALL");

/**
 * A validated, normalized copy of a message input; throws a CtxloomError naming the bad field.
 * `fresh` (default): a new message, whose tool calls must be what providers accept (see checkToolCalls).
 */
export function checkMessageInput(input: unknown, fresh = true): CheckedInput {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `A message must be an object { role, content, ... }; got ${describe(input)}.`,
    );
  }
  checkKeys(input, MESSAGE_INPUT_KEYS, "A message");
  const m = input as Partial<MessageInput>;
  const role = checkRole(m.role);
  let parts: ContentPart[] | undefined;
  let content: string;
  if (Array.isArray(m.content)) {
    parts = checkParts(m.content, role, checkContent);
    content = partsText(parts);
  } else {
    content = checkContent(m.content);
  }
  const priority = m.priority === undefined ? (role === "system" ? "critical" : "normal") : checkPriority(m.priority);
  const out: CheckedInput = { role, content, priority };
  if (parts && hasRichPart(parts)) out.parts = parts;
  if (m.name !== undefined) out.name = checkMessageName(m.name, fresh);
  if (m.toolCalls !== undefined) {
    if (role !== "assistant") {
      throw new CtxloomError(
        "INVALID_TOOL_CALL",
        `Only assistant messages carry toolCalls; this one has role ${describe(role)}.`,
      );
    }
    out.toolCalls = checkToolCalls(m.toolCalls, fresh);
  }
  if (role === "tool") {
    out.toolCallId = checkText(m.toolCallId, "A tool message's toolCallId (the id of the call it answers)");
  } else if (m.toolCallId !== undefined) {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `Only tool messages carry toolCallId; this one has role ${describe(role)}.`,
    );
  }
  // A tool result may be empty (a command that prints nothing, an empty record): what the tool said.
  if (content.length === 0 && !out.toolCalls && !out.parts && role !== "tool") {
    throw new CtxloomError(
      "INVALID_CONTENT",
      "content must not be empty (only a tool result, an assistant message that carries toolCalls, or a message " +
        "with an image, file, reasoning or compaction part, may have no text).",
    );
  }
  return out;
}

/**
 * How storedMessageProblem reads a message: `tokens` may be left out (an export's), `fresh` (brought in: an append's
 * rules).
 */
export interface StoredCheck {
  tokensOptional?: boolean;
  fresh?: boolean;
}

/**
 * Checks a message read back from a store, or brought in (an import, an importer), whole:
 * every field's type and range, the same content rules as an input, tokens within MAX_TOKENS
 * (unless `tokens` may be absent). A message brought in (`fresh`) passes every rule an append
 * does (names and tool calls providers accept); one a store kept is read as it was written (a
 * name or arguments written before a rule was). Returns a description of the first problem,
 * or null. Tree rules (ids, parents, tool units) are the tree's.
 */
export function storedMessageProblem(m: unknown, options: StoredCheck = {}): string | null {
  if (m === null || typeof m !== "object" || Array.isArray(m)) return `it is ${describe(m)}, not a message object`;
  const r = m as Record<string, unknown>;
  for (const key of Object.keys(r))
    if (!(MESSAGE_KEYS as readonly string[]).includes(key)) return `it has an unknown field ${describe(key)}`;
  if (!Number.isInteger(r.id)) return `its id ${describe(r.id)} is not an integer`;
  if (r.parentId !== null && !Number.isInteger(r.parentId))
    return `its parentId ${describe(r.parentId)} is not an integer or null`;
  if (
    !(r.tokens === undefined && options.tokensOptional) &&
    !(Number.isInteger(r.tokens) && (r.tokens as number) >= 0 && (r.tokens as number) <= MAX_TOKENS)
  ) {
    return `its tokens ${describe(r.tokens)} is not an integer from 0 to ${MAX_TOKENS}`;
  }
  if (typeof r.createdAt !== "number" || !Number.isFinite(r.createdAt))
    return `its createdAt ${describe(r.createdAt)} is not a finite number`;
  if (r.kind !== "message" && r.kind !== "summary") return `its kind ${describe(r.kind)} is not "message" or "summary"`;
  if (r.kind === "summary") return summaryProblem(r);
  if (r.covers !== undefined) return "it has covers, which only summaries carry";
  if (r.toolCalls !== undefined && !Array.isArray(r.toolCalls))
    return `its toolCalls ${describe(r.toolCalls)} is not an array`;
  if (r.parts !== undefined && !Array.isArray(r.parts)) return `its parts ${describe(r.parts)} is not an array`;
  const input: Record<string, unknown> = { role: r.role, content: r.parts ?? r.content, priority: r.priority };
  for (const key of ["name", "toolCalls", "toolCallId"] as const) if (r[key] !== undefined) input[key] = r[key];
  if (r.role === "tool" && typeof r.toolCallId !== "string") return "it is a tool result without a toolCallId";
  try {
    if (r.priority === undefined) return "it has no priority";
    const checked = checkMessageInput(input, options.fresh === true);
    if (r.parts !== undefined) {
      if (!checked.parts)
        return "its parts hold text only (a message keeps parts only when one is an image, file or reasoning)";
      if (checked.content !== r.content) return 'its content is not the text of its parts joined with "\\n"';
    }
  } catch (error) {
    return (error as Error).message;
  }
  return null;
}

/**
 * What is wrong with a stored summary (kind "summary"), or null: a system text with `covers` of earlier ids, nothing
 * else.
 */
function summaryProblem(r: Record<string, unknown>): string | null {
  const c = r.covers as Record<string, unknown> | undefined;
  if (
    c === null ||
    typeof c !== "object" ||
    Array.isArray(c) ||
    Object.keys(c).some((k) => k !== "first" && k !== "last")
  ) {
    return `it is a summary whose covers ${describe(c)} is not { first, last }`;
  }
  if (
    !Number.isInteger(c.first) ||
    !Number.isInteger(c.last) ||
    (c.first as number) < 0 ||
    (c.last as number) < (c.first as number) ||
    (c.last as number) >= (r.id as number)
  ) {
    return (
      `it is a summary whose covers ${describe(c)} does not name a run of earlier messages (0 <= first <= last ` +
      `< id)`
    );
  }
  if (r.role !== "system") return `it is a summary with role ${describe(r.role)} (summaries are "system")`;
  if (typeof r.content !== "string" || r.content.length === 0) return "it is a summary without text";
  if (!PRIORITIES.includes(r.priority as Priority))
    return `its priority ${describe(r.priority)} is not one of ${PRIORITIES.join(", ")}`;
  if (r.name !== undefined || r.toolCalls !== undefined || r.toolCallId !== undefined || r.parts !== undefined)
    return "it is a summary with a name, parts or tool fields";
  return null;
}

/** A Message's optional fields, copied (frozen tool calls), or undefined when it has none. */
export function extrasOf(m: MessageExtras): Readonly<MessageExtras> | undefined {
  if (m.name === undefined && !m.toolCalls && m.toolCallId === undefined && !m.parts) return undefined;
  const extras: MessageExtras = {};
  if (m.name !== undefined) extras.name = m.name;
  if (m.toolCalls)
    extras.toolCalls = m.toolCalls.map((c) => Object.freeze({ ...c, function: Object.freeze({ ...c.function }) }));
  if (m.toolCallId !== undefined) extras.toolCallId = m.toolCallId;
  if (m.parts) extras.parts = copyParts(m.parts, true);
  return Object.freeze(extras);
}

/** A deep copy of a message: nothing of it is shared with the original. */
export function copyMessage(m: Message): Message {
  const copy = { ...m };
  if (m.toolCalls) copy.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
  if (m.covers) copy.covers = { ...m.covers };
  if (m.parts) copy.parts = copyParts(m.parts);
  return copy;
}
