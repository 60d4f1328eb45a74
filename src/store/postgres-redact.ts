// chat.redact on PostgreSQL: the messages' rows rewritten in one statement (postgres-sql.ts).
import { checkRedactedIds, checkRedactions } from "./call-checks.js";
import { toText } from "./postgres-rows.js";
import type { MessageRedaction } from "./types.js";

/**
 * Rewrites the messages as Store.redactMessages says, in one statement run by `run` (the
 * store's `redact` statement), all or nothing. PostgreSQL writes a new version of each row:
 * the old one, with the old text, stays in the table's files (and its TOAST table, the WAL, the
 * archive, the backups) until VACUUM reclaims its space and later writes reuse it; that is the
 * operator's to schedule. False when the user has no such chat.
 */
export async function redactRows(
  run: (values: unknown[]) => Promise<{ rows: unknown[] }>,
  userId: string,
  chatId: string,
  changes: MessageRedaction[],
): Promise<boolean> {
  const checked = checkRedactions(userId, chatId, changes);
  const ids = checked.map((c) => c.id);
  const r = await run([
    toText(chatId),
    toText(userId),
    ids,
    checked.map((c) => toText(c.content)),
    checked.map((c) => (c.toolCalls ? JSON.stringify(c.toolCalls) : null)),
    Math.max(...ids),
    checked.map((c) => c.tokens),
  ]);
  const [size] = r.rows[0] as [number | null, string];
  if (size === null) return false;
  checkRedactedIds(checked, size, chatId); // an id past the chat's messages: nothing was written
  return true;
}
