import { CtxloomError, checkOptions, describe } from "../errors.js";
import type { BuildOptions, BuildRecallOptions, ContextSource } from "../context/types.js";
import type { RecallHub } from "./hub.js";
import type { RecallChat } from "./port.js";
import { checkBuildRecall, checkChatRecall, type ChatRecallOptions, type RecalledMessage } from "./options.js";
import { fitExchanges, recallIn, recallText, topMessages } from "./recalled.js";
import { readyRecall } from "./request-wait.js";

function hubOf(hub: RecallHub | null): RecallHub {
  if (!hub) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      "Recall is off: this Loom was opened with recall: false. Open it with recall: { embedder } (or leave recall " +
        "out for the built-in embedder).",
    );
  }
  return hub;
}

/**
 * `chat.recall(query, options)`: waits the embedder's recallTimeoutMs at most; a query left
 * with no vector fails (EMBEDDER_FAILED), messages not embedded by then are found by their words.
 */
export async function chatRecall(
  recall: RecallHub | null,
  chat: RecallChat,
  query: string,
  options: ChatRecallOptions | undefined,
): Promise<RecalledMessage[]> {
  const o = checkChatRecall(options);
  if (typeof query !== "string" || query.trim() === "") {
    throw new CtxloomError("INVALID_ARGUMENT", `A recall query must be a non-empty text; got ${describe(query)}.`);
  }
  const hub = hubOf(recall);
  const { scope, query: q, failure } = await readyRecall(hub, chat, o.scope ?? "chat", query);
  if (failure) throw failure;
  if (o.k !== undefined) return topMessages(hub, chat.userId, scope, q, o.k, o.minScore);
  return recallIn(hub, chat.userId, scope, q, o).flatMap((e) => e.messages);
}

/** The newest user message of the branch, or null. */
function newestUserText(chat: RecallChat): string | null {
  for (let id = chat.head; id >= 0; id = chat.source.parent(id)) {
    if (chat.source.roleOf(id) === "user") {
      const m = chat.source.message(id);
      if (m.kind !== "summary" && m.content.trim() !== "") return m.content;
    }
  }
  return null;
}

const NO_RECALL: { rest: undefined; recall: null } = Object.freeze({ rest: undefined, recall: null });

/** Splits buildContext's `recall` option (checked; null when off) from the others. @throws INVALID_ARGUMENT */
export function splitRecall(
  hub: RecallHub | null,
  options: BuildOptions | undefined,
): { rest: BuildOptions | undefined; recall: BuildRecallOptions | null } {
  if (options === undefined) return NO_RECALL; // (a server's usual build: nothing made)
  if (options === null || typeof options !== "object" || !("recall" in options)) return { rest: options, recall: null };
  const { recall, ...rest } = checkOptions<BuildOptions>(options, "buildContext(options)");
  const o = checkBuildRecall(recall);
  if (o) hubOf(hub);
  return { rest, recall: o };
}

/**
 * Prepares the builder's recall hook: the scope loaded, queued embeddings flushed and the query
 * embedded, within the embedder's recallTimeoutMs (past it, with what there is, said in
 * `recallDegraded`). The hook then picks exchanges outside the window and keeps those that
 * fit the memory slice. Null when there is nothing to recall for (no query).
 * @throws LOOM_CLOSED, STORE_FAILED (never EMBEDDER_FAILED: a build recalls with what it has)
 */
export async function recallHook(
  recall: RecallHub | null,
  chat: RecallChat,
  o: BuildRecallOptions,
  rest: BuildOptions,
): Promise<Required<Pick<ContextSource, "recall" | "recallDegraded">> | null> {
  const hub = hubOf(recall);
  const input = typeof rest.input === "string" && rest.input.trim() !== "" ? rest.input : null;
  const query = o.query ?? input ?? newestUserText(chat);
  if (query === null) return null;
  const { query: _query, ...counts } = o;
  const { scope, query: q, degraded } = await readyRecall(hub, chat, o.scope ?? "chat", query);
  const keys = hub.user(chat.userId).keys;
  const hook: ContextSource["recall"] & {} = (window, fits) => {
    const found = recallIn(
      hub,
      chat.userId,
      scope,
      q,
      counts,
      window.map((id) => keys.key(chat.chatId, id)),
    );
    const kept = fitExchanges(found, fits);
    return { text: recallText(kept), messages: kept.flatMap((e) => e.messages.map((r) => r.message)) };
  };
  return { recall: hook, recallDegraded: degraded };
}
