import { CtxloomError, describe } from "../errors.js";
import { PRIORITIES, ROLES, type Priority, type Role } from "../engine/types.js";

export type { Priority, Role } from "../engine/types.js";

/** An OpenAI-style tool call carried by an assistant message. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A message of a chat, as stored. Ids count up from 0 in creation order within the chat. */
export interface Message {
  id: number;
  /** The previous message on its branch; null for a root. */
  parentId: number | null;
  role: Role;
  content: string;
  priority: Priority;
  /** Tokens this message costs in a request (cookbook rules), counted once at append. */
  tokens: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  kind: "message" | "summary";
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  /** For a summary (kind "summary"): the oldest and newest ids of the run of ancestors it stands for. */
  covers?: { first: number; last: number };
}

/** What `chat.append` takes. */
export interface MessageInput {
  role: Role;
  content: string;
  /** Default "normal"; "critical" for a system message. */
  priority?: Priority;
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
}

/** The optional fields of a message, kept off the hot path. */
export interface MessageExtras {
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
}

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

export function checkContent(content: unknown, what = "content"): string {
  if (typeof content !== "string") {
    throw new CtxloomError("INVALID_CONTENT", `${what} must be a string; got ${describe(content)}. Serialize other values first.`);
  }
  return content;
}

function checkText(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new CtxloomError("INVALID_TOOL_CALL", `${what} must be a non-empty string; got ${describe(value)}.`);
  }
  return value;
}

function checkToolCalls(calls: unknown): ToolCall[] {
  if (!Array.isArray(calls) || calls.length === 0) {
    throw new CtxloomError(
      "INVALID_TOOL_CALL",
      `toolCalls must be a non-empty array of { id, type: "function", function: { name, arguments } }; got ${describe(calls)}.`,
    );
  }
  const ids = new Set<string>();
  return calls.map((call: unknown, i) => {
    const c = (call ?? {}) as Partial<ToolCall>;
    const id = checkText(c.id, `toolCalls[${i}].id`);
    if (ids.has(id)) throw new CtxloomError("INVALID_TOOL_CALL", `toolCalls[${i}].id ${describe(id)} repeats an earlier call's id; give every call its own id.`);
    ids.add(id);
    if (c.type !== "function") throw new CtxloomError("INVALID_TOOL_CALL", `toolCalls[${i}].type must be "function"; got ${describe(c.type)}.`);
    const fn = (c.function ?? {}) as Partial<ToolCall["function"]>;
    const name = checkText(fn.name, `toolCalls[${i}].function.name`);
    if (typeof fn.arguments !== "string") {
      throw new CtxloomError("INVALID_TOOL_CALL", `toolCalls[${i}].function.arguments must be a string (JSON text); got ${describe(fn.arguments)}.`);
    }
    return { id, type: "function", function: { name, arguments: fn.arguments } };
  });
}

/** A validated, normalized copy of a message input; throws a CtxloomError naming the bad field. */
export function checkMessageInput(input: unknown): Required<Pick<MessageInput, "role" | "content" | "priority">> & MessageExtras {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new CtxloomError("INVALID_ARGUMENT", `A message must be an object { role, content, ... }; got ${describe(input)}.`);
  }
  const m = input as Partial<MessageInput>;
  const role = checkRole(m.role);
  const content = checkContent(m.content);
  const priority = m.priority === undefined ? (role === "system" ? "critical" : "normal") : checkPriority(m.priority);
  const out: Required<Pick<MessageInput, "role" | "content" | "priority">> & MessageExtras = { role, content, priority };
  if (m.name !== undefined) {
    if (typeof m.name !== "string" || m.name.length === 0) {
      throw new CtxloomError("INVALID_ARGUMENT", `name must be a non-empty string when given; got ${describe(m.name)}.`);
    }
    out.name = m.name;
  }
  if (m.toolCalls !== undefined) {
    if (role !== "assistant") {
      throw new CtxloomError("INVALID_TOOL_CALL", `Only assistant messages carry toolCalls; this one has role ${describe(role)}.`);
    }
    out.toolCalls = checkToolCalls(m.toolCalls);
  }
  if (role === "tool") {
    out.toolCallId = checkText(m.toolCallId, "A tool message's toolCallId (the id of the call it answers)");
  } else if (m.toolCallId !== undefined) {
    throw new CtxloomError("INVALID_TOOL_CALL", `Only tool messages carry toolCallId; this one has role ${describe(role)}.`);
  }
  if (content.length === 0 && !out.toolCalls) {
    throw new CtxloomError(
      "INVALID_CONTENT",
      "content must not be empty (only an assistant message that carries toolCalls may have empty content).",
    );
  }
  return out;
}
