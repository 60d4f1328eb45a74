import type { CtxloomError } from "../errors.js";
import type { RecallDegraded, RecallScope } from "../context/types.js";
import { recallTimeoutOf, tryEmbedTexts } from "./embedder.js";
import type { RecallHub } from "./hub.js";
import type { RecallQuery } from "./memory.js";
import type { RecallChat } from "./port.js";
import { openScope, type Scope } from "./scope.js";

/** What a request's recall has once its wait is over. */
export interface ReadyRecall {
  scope: Scope;
  /** The query: its text, and its vector when the embedder gave one in time (null: by words alone). */
  query: RecallQuery;
  /** How recall falls short of its embedder, or null. */
  degraded: RecallDegraded | null;
  /** Why the query has no vector (the embedder's error), or null. */
  failure: CtxloomError | null;
}

/**
 * Readies recall for a request (a build, `chat.recall`) within one wait, the embedder's
 * recallTimeoutMs: the query's vector is asked for at once, the scope is loaded, and the
 * messages queued before the request are embedded while the wait lasts. An embedder that is
 * slow, stuck or failing costs the request that wait at most, never its background timeoutMs
 * (the queued batches go on behind, with their own timeout and retries).
 * @throws LOOM_CLOSED when the Loom closes meanwhile; STORE_FAILED (loading the scope)
 */
export async function readyRecall(
  hub: RecallHub,
  chat: RecallChat,
  scopeName: RecallScope,
  text: string,
): Promise<ReadyRecall> {
  const waitMs = recallTimeoutOf(hub.embedder);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), waitMs);
  });
  try {
    // Never rejects but for bad arguments (none here): a scope that fails to load leaves it to end alone.
    const asked = tryEmbedTexts(hub.embedder, [text], hub.queue.signal, { ms: waitMs, setting: "recallTimeoutMs" });
    const scope = await openScope(hub, chat, scopeName);
    const flushing = hub.queue.flush().then(
      () => true,
      () => true,
    );
    const flushed = await Promise.race([flushing, timeUp]);
    const embedded = await asked;
    hub.checkOpen();
    const pending =
      scopeName === "user" ? hub.queue.pendingOf(chat.userId) : hub.queue.pendingOf(chat.userId, chat.chatId);
    if (!embedded.ok) {
      const error = embedded.error;
      const degraded: RecallDegraded = {
        reason: embedded.why === "timeout" ? "timeout" : "failed",
        lexicalOnly: true,
        pending,
        error: `${error.code}: ${error.message}`,
      };
      return { scope, query: { text, vector: null }, degraded, failure: error };
    }
    const v = embedded.vectors;
    const query = { text, vector: v.every((x) => x === 0) ? null : v };
    if (pending === 0) return { scope, query, degraded: null, failure: null };
    // The queue ended with messages left (a failed batch) or was still at work when the wait ended.
    const degraded: RecallDegraded = flushed
      ? { reason: "failed", lexicalOnly: false, pending, error: hub.queue.stats().lastError }
      : { reason: "timeout", lexicalOnly: false, pending, error: null };
    return { scope, query, degraded, failure: null };
  } finally {
    clearTimeout(timer);
  }
}
