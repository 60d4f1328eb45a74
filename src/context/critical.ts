import { CtxloomError } from "../errors.js";
import { FLAG_TOOL_CALLS, ROLE_TOOL } from "../engine/types.js";
import { PRIORITIES, ROLES } from "../message.js";
import type { ContextSource } from "./types.js";

const CRITICAL = PRIORITIES.indexOf("critical");
const USER = ROLES.indexOf("user");

/**
 * The promise of CRITICAL: a critical message is sent, or the build fails. The engine
 * never sends a tool unit missing an answer, so a critical assistant message whose calls
 * are not all answered cannot be sent; building then fails with INVALID_TOOL_CALL instead
 * of dropping it. Checked where such a unit ends: at the head (calls awaiting their
 * results) and just before each user message kept (calls left unanswered when the user
 * spoke again). O(W): only the kept messages' neighbours are read. A broken unit older
 * than every kept user message is not seen here (the engine skips it without a trace).
 */
export function checkCriticalUnits(source: ContextSource, kept: Int32Array): void {
  if (source.criticalCalls === false) return; // no such message in the tree: nothing to check
  const e = source.engine;
  const t = source.tree;
  check(source, source.head);
  for (const id of kept) {
    if (e.role(t, id) !== USER) continue;
    const before = e.parent(t, id);
    if (before >= 0) check(source, before);
  }
}

/** Throws when the unit ending at `id` is a critical assistant message with calls not all answered. */
function check(source: ContextSource, id: number): void {
  const e = source.engine;
  const t = source.tree;
  let x = id;
  while (x >= 0 && e.role(t, x) === ROLE_TOOL) x = e.parent(t, x);
  if (x < 0 || !(e.flags(t, x) & FLAG_TOOL_CALLS) || e.priority(t, x) !== CRITICAL) return;
  // Only now, for a critical unit (rare), are the results read: a build checks every kept user message.
  const answered = new Set<string>();
  for (let r = id; r !== x; r = e.parent(t, r)) answered.add(source.message(r).toolCallId!);
  const calls = source.message(x).toolCalls ?? [];
  const open = calls.filter((c) => !answered.has(c.id)).map((c) => c.id);
  if (open.length === 0) return;
  throw new CtxloomError(
    "INVALID_TOOL_CALL",
    `The CRITICAL assistant message ${x} cannot be sent: its tool calls ` +
      `${open.map((c) => JSON.stringify(c)).join(", ")} ` +
      `have no answer on this branch, and a call is never sent without its results. Append the missing tool results ` +
      `(from message ${x}: checkout(${x}) and append them, if other messages followed it), then build again.`,
  );
}
