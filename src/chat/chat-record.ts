// What a chat's record needs beyond the store's checks: strings every store keeps as given, and
// the model a stored chat is reopened with.
import { CtxloomError, describe } from "../errors.js";
import { loneIn } from "../message.js";
import { registeredProfile, type ModelProfile } from "../models/profiles.js";
import type { ChatRecord } from "../store/types.js";
import { currentSummaries } from "../summary/settings.js";
import type { SummaryLevel } from "../summary/policy.js";
import { storeCorrupt } from "./restore.js";

/**
 * The model to reopen a chat with: the profile stored at creation (when it was created with
 * a profile object), unless a profile registered under that name carries a counter, which
 * no store can keep; else the model's name. A chat whose profile had its own counter needs
 * that model registered with a counter: it never falls back to the heuristic silently.
 */
export function modelOf(chat: Pick<ChatRecord, "id" | "model" | "options">): string | ModelProfile {
  const o = chat.options ?? {};
  const registered = registeredProfile(chat.model);
  if (o.counter !== undefined) {
    if (registered?.counter) return registered;
    throw new CtxloomError(
      "UNKNOWN_MODEL",
      `Chat ${describe(chat.id)} counts tokens with its profile's own counter ${describe(o.counter)}, which no ` +
        `store can keep. ` +
        `Register the model first: registerModel({ ...profile, name: ${JSON.stringify(chat.model)}, counter }), ` +
        `then open the chat.`,
    );
  }
  if (!o.profile) return chat.model;
  return registered?.counter ? registered : o.profile;
}

/**
 * Refuses a chat record holding a string no store keeps as given (a lone surrogate: UTF-8
 * turns it into U+FFFD, PostgreSQL refuses it), which would come back changed or not at all.
 * @throws INVALID_ARGUMENT naming the field
 */
export function checkKept(record: Partial<ChatRecord>, what: string): void {
  const path = loneIn(record);
  if (path !== undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}: its ${path} holds a lone surrogate (half of a UTF-16 pair), which stores cannot keep; repair it ` +
        `(e.g. text.toWellFormed()).`,
    );
  }
}

/**
 * A stored chat's record with its settings in the current shape: summary settings kept by an
 * older release (`summarize`, `summaryPresentation`) read as `summaries` under the Loom's
 * (`loom`; see currentSummaries). The record itself when nothing changes.
 * @throws STORE_CORRUPT when they are malformed
 */
export function currentRecord(record: ChatRecord, loom: SummaryLevel): ChatRecord {
  const options = record.options;
  if (!options) return record;
  try {
    const current = currentSummaries(options, "options", loom);
    return current === options ? record : { ...record, options: current };
  } catch (error) {
    throw storeCorrupt(record.id)(`its options are malformed: ${(error as Error).message}`);
  }
}
