import { CtxloomError, describe } from "../errors.js";
import { MAX_TOKENS, loneSurrogate, storedMessageProblem, type Message, type StoredCheck } from "../message.js";
import { checkNoOpenCalls, checkToolResult } from "../context/tool-units.js";
import { ROLE_TOOL } from "../engine/types.js";
import type { MessageColumns } from "../store/columns.js";
import type { ChatNodes } from "./nodes.js";

/** Makes the error of a bad record: STORE_CORRUPT for a store, INVALID_ARGUMENT for an import. */
export type Fail = (what: string) => CtxloomError;

/** `what` ready to end a sentence the caller closes: without its own final period. */
export const clause = (what: string): string => what.replace(/\.+$/, "");

export const storeCorrupt =
  (chatId: string): Fail =>
  (what) =>
    new CtxloomError(
      "STORE_CORRUPT",
      `Chat ${chatId} cannot be loaded: ${clause(what)}. The store was changed outside ctxloom; restore it from a ` +
        `backup.`,
    );

/**
 * Checks one message read back (from a store, or an import) against the tree as it is and
 * the rules an append follows: every field, the next id, a parent before it, tool results
 * answering an open call with its priority, no other message under open calls, no call id
 * used twice on a branch. Returns whether it ends its tool unit. Changes nothing.
 */
export function checkRestored(nodes: ChatNodes, m: unknown, fail: Fail, options: StoredCheck = {}): boolean {
  const id = nodes.size;
  if (plainStored(m) && m.id === id) {
    // The common case, checked without allocating: what the full check below accepts.
    const parent = m.parentId ?? -1;
    if (parent < -1 || parent >= id)
      throw fail(`message ${id} has parent ${describe(m.parentId)}, which is not an earlier message`);
    if (parent < 0 || !nodes.mayOpenUnit(parent)) return false;
  }
  const problem = storedMessageProblem(m, options);
  if (problem) throw fail(`message ${id} is malformed: ${problem}`);
  const r = m as Message;
  const parent = r.parentId ?? -1;
  if (r.id !== id) throw fail(`message ${describe(r.id)} is out of order (expected id ${id})`);
  if (parent < -1 || parent >= id)
    throw fail(`message ${id} has parent ${describe(r.parentId)}, which is not an earlier message`);
  if (r.kind === "summary") {
    const { first, last } = r.covers!;
    if (nodes.isSummary(first) || nodes.isSummary(last) || !nodes.isAncestor(first, last)) {
      throw fail(`summary ${id} covers ${first}..${last}, which is not a run of messages of one branch`);
    }
    if (parent !== nodes.parent(first))
      throw fail(`summary ${id} has parent ${describe(r.parentId)}, not the parent of the first message it covers`);
    return false;
  }
  const unit = parent < 0 ? null : nodes.unitAt(parent);
  try {
    if (r.role === "tool") return checkToolResult(unit, r.toolCallId!, r.priority).completes;
    checkNoOpenCalls(unit, r.role);
  } catch (error) {
    throw fail(`message ${id} breaks a tool unit: ${(error as Error).message}`);
  }
  return false;
}

/**
 * True when `m` is a message the full check accepts field by field with no optional field
 * (no name, tool calls, tool call id or covers): own keys among the eight plain ones, an
 * integer id and parent, tokens in range, a finite time, kind "message", a system, user or
 * assistant role, a known priority, non-empty well-formed content. False says nothing: the
 * full check decides.
 */
function plainStored(m: unknown): m is Message {
  if (m === null || typeof m !== "object" || Array.isArray(m)) return false;
  const r = m as Record<string, unknown>;
  for (const key in r) {
    if (!Object.hasOwn(r, key)) return false;
    switch (key) {
      case "id":
      case "parentId":
      case "role":
      case "content":
      case "priority":
      case "tokens":
      case "createdAt":
      case "kind":
        continue;
      default:
        return false;
    }
  }
  const { id, parentId, role, content, priority, tokens, createdAt } = r;
  return (
    r.kind === "message" &&
    r.name === undefined &&
    r.toolCalls === undefined &&
    r.toolCallId === undefined &&
    r.covers === undefined &&
    Number.isInteger(id) &&
    (parentId === null || Number.isInteger(parentId)) &&
    Number.isInteger(tokens) &&
    (tokens as number) >= 0 &&
    (tokens as number) <= MAX_TOKENS &&
    typeof createdAt === "number" &&
    Number.isFinite(createdAt) &&
    (role === "user" || role === "assistant" || role === "system") &&
    (priority === "normal" || priority === "low" || priority === "high" || priority === "critical") &&
    typeof content === "string" &&
    content.length > 0 &&
    loneSurrogate(content) < 0
  );
}

/** Applies messages read back, checking each as above. Throws at the first bad one (those before it stay). */
export function applyRestored(
  nodes: ChatNodes,
  messages: readonly unknown[],
  fail: Fail,
  options: StoredCheck = {},
): void {
  if (!Array.isArray(messages)) throw fail(`its messages are ${describe(messages)}, not an array`);
  for (const m of messages) {
    const unitEnd = checkRestored(nodes, m, fail, options);
    linkChecked(nodes, m as Message, unitEnd, fail);
  }
}

/**
 * Links the messages the chat's columns hold beyond those linked (a store's columnar load, or
 * a resident chat waking), checked as `applyRestored` checks them: a plain message from its
 * columns with no object made, any other through `checkRestored`. Throws at the first bad one.
 */
export function applyHeld(nodes: ChatNodes, fail: Fail): void {
  const cols = nodes.columns;
  for (let id = nodes.size; id < cols.size; id++) {
    if (plainHeld(nodes, cols, id)) {
      nodes.linkHeld(id, false);
      continue;
    }
    const m = cols.message(id);
    linkChecked(nodes, m, checkRestored(nodes, m, fail), fail);
  }
}

/**
 * What `plainStored` accepts, read from columns: no optional field, a plain role, a non-empty well-formed text, no open
 * unit above.
 */
function plainHeld(nodes: ChatNodes, cols: MessageColumns, id: number): boolean {
  const parent = cols.parentOf(id);
  const tokens = cols.tokensOf(id);
  return (
    !cols.extras.has(id) &&
    cols.kindOf(id) === "message" &&
    cols.roleCodeOf(id) !== ROLE_TOOL &&
    parent >= -1 &&
    parent < id &&
    (parent < 0 || !nodes.mayOpenUnit(parent)) &&
    tokens >= 0 &&
    tokens <= MAX_TOKENS &&
    Number.isFinite(cols.createdAt(id)) &&
    !cols.isEmpty(id) &&
    (cols.utf8 || loneSurrogate(cols.text(id)) < 0)
  ); // UTF-8 cannot hold a lone surrogate
}

function linkChecked(nodes: ChatNodes, m: Message, unitEnd: boolean, fail: Fail): void {
  try {
    nodes.link(m, unitEnd);
  } catch (error) {
    // The engine refuses a summary whose run overlaps another in part or cuts a tool unit.
    if (m.kind === "summary" && error instanceof CtxloomError && error.code === "INVALID_ARGUMENT") {
      throw fail(`summary ${m.id} is refused: ${error.message}`);
    }
    throw error;
  }
}

/** Throws unless `head` is null or one of the `size` messages. */
export function checkHead(head: unknown, size: number, fail: Fail, nodes?: ChatNodes): number {
  if (head === null) return -1;
  if (!(Number.isInteger(head) && (head as number) >= 0 && (head as number) < size)) {
    throw fail(`its head ${describe(head)} is not one of its ${size} messages`);
  }
  if (nodes?.isSummary(head as number)) throw fail(`its head ${head} is a summary, not a message`);
  return head as number;
}
