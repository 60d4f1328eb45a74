import { CtxloomError, checkKeys, describe } from "../errors.js";
import type { Message } from "../message.js";
import { EXPORT_VERSION, EXPORT_VERSION_PLAIN, type ChatExport } from "../store/portable.js";
import { checkHistory } from "../memory/export.js";
import type { MemoryRecord } from "../memory/types.js";
import type { ChatOptions, ChatRecord } from "../store/types.js";
import { messageTokens, type TokenCounter } from "../tokens/index.js";
import type { Engine } from "../engine/types.js";
import { ChatNodes } from "./nodes.js";
import { copyParts } from "../parts.js";
import { checkHead, checkRestored, clause, type Fail } from "./restore.js";
import { checkNewChatId } from "./chat-list.js";
import { checkKeptSettings } from "./create-options.js";
import type { SummaryLevel } from "../summary/policy.js";

/** A chat as a ChatExport: its record, head and every message in id order. O(messages). */
export function exportChat(record: ChatRecord, nodes: ChatNodes, head: number): ChatExport {
  const messages = new Array<Message>(nodes.size);
  for (let id = 0; id < messages.length; id++) messages[id] = nodes.message(id);
  const chat: ChatExport["chat"] = {
    id: record.id,
    title: record.title,
    model: record.model,
    system: record.system,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.options && Object.keys(record.options).length > 0) chat.options = structuredClone(record.options);
  return { format: "ctxloom.chat", version: EXPORT_VERSION_PLAIN, chat, head: head < 0 ? null : head, messages };
}

const fail: Fail = (what) =>
  new CtxloomError(
    "INVALID_ARGUMENT",
    `This chat export cannot be imported: ${clause(what)}. Nothing was imported; fix the file and retry.`,
  );

/** The parts of an export checked before anything is counted or built. */
export interface CheckedExport {
  chat: ChatExport["chat"];
  options: ChatOptions;
  head: unknown;
  messages: unknown[];
  /** The chat's own memory, checked whole (none: []). */
  memory: MemoryRecord[];
}

/**
 * Checks an export's envelope and record (not yet its messages); summary settings in the older
 * shape read under `loom`'s (the importing Loom's). @throws INVALID_ARGUMENT naming what is wrong
 */
export function checkExport(value: unknown, loom?: SummaryLevel): CheckedExport {
  let data = value;
  if (typeof value === "string") {
    try {
      data = JSON.parse(value);
    } catch (error) {
      throw fail(`it is not JSON (${(error as Error).message})`);
    }
  }
  if (data === null || typeof data !== "object" || Array.isArray(data))
    throw fail(`it is ${describe(data)}, not a ChatExport object`);
  const x = data as Partial<ChatExport>;
  checkKeys(x, ["format", "version", "chat", "head", "messages", "memory"], "A ChatExport");
  if (x.format !== "ctxloom.chat") throw fail(`its format is ${describe(x.format)}, not "ctxloom.chat"`);
  if (!Number.isInteger(x.version) || (x.version as number) < 1)
    throw fail(`its version ${describe(x.version)} is not a version number`);
  if ((x.version as number) > EXPORT_VERSION) {
    throw fail(
      `it was written in version ${x.version} of the format, newer than this release reads (${EXPORT_VERSION}); ` +
        `upgrade ctxloom`,
    );
  }
  const c = x.chat as Partial<ChatExport["chat"]> | undefined;
  if (c === null || typeof c !== "object") throw fail(`its chat is ${describe(c)}, not an object`);
  checkKeys(c, ["id", "title", "model", "system", "createdAt", "updatedAt", "options"], "A ChatExport's chat");
  try {
    if (c.id !== undefined) checkNewChatId(c.id); // create()'s rule for an id given
  } catch (error) {
    throw fail(`its chat.id is not one create() takes: ${(error as Error).message}`);
  }
  for (const key of ["title", "model"] as const)
    if (typeof c[key] !== "string") throw fail(`its chat.${key} ${describe(c[key])} is not a string`);
  if (c.model === "") throw fail("its chat.model is empty");
  if (c.system !== null && typeof c.system !== "string")
    throw fail(`its chat.system ${describe(c.system)} is not a string or null`);
  for (const key of ["createdAt", "updatedAt"] as const) {
    if (typeof c[key] !== "number" || !Number.isFinite(c[key]))
      throw fail(`its chat.${key} ${describe(c[key])} is not a finite number`);
  }
  let options: ChatOptions;
  try {
    options = checkKeptSettings(c.options, c.model as string, loom);
  } catch (error) {
    throw fail(`its chat.options are malformed: ${(error as Error).message}`);
  }
  if (!Array.isArray(x.messages)) throw fail(`its messages ${describe(x.messages)} are not an array`);
  if ((x.version as number) < 2) {
    const at = x.messages.findIndex((m: unknown) => m !== null && typeof m === "object" && Object.hasOwn(m, "parts"));
    if (at >= 0)
      throw fail(`its message ${at} has parts, which version ${x.version} of the format does not have (set version 2)`);
  }
  let memory: MemoryRecord[] = [];
  if (x.memory !== undefined) {
    if ((x.version as number) < 3)
      throw fail(`it has a memory, which version ${x.version} of the format does not have (set version 3)`);
    memory = checkHistory(x.memory, "its memory's records", fail);
  }
  return { chat: c as ChatExport["chat"], options, head: x.head, messages: x.messages, memory };
}

/**
 * Builds the tree of an export's messages, checked whole like a restore (ids in order,
 * parents first, tool units, every field), counting the tokens left out with `counter`.
 * Returns the messages as they will be stored; on any problem nothing is kept.
 */
export function buildImport(
  engine: Engine,
  checked: CheckedExport,
  counter: TokenCounter,
): { nodes: ChatNodes; head: number; messages: Message[] } {
  const nodes = new ChatNodes(engine);
  try {
    const messages = new Array<Message>(checked.messages.length);
    for (let i = 0; i < messages.length; i++) {
      const raw = checked.messages[i];
      const unitEnd = checkRestored(nodes, raw, fail, { tokensOptional: true, fresh: true });
      const m = { ...(raw as Message) };
      if (m.tokens === undefined) {
        try {
          m.tokens = messageTokens(counter, m);
        } catch (error) {
          throw fail(`message ${i} cannot be counted: ${(error as Error).message}`);
        }
      }
      if (m.toolCalls) m.toolCalls = m.toolCalls.map((c) => ({ ...c, function: { ...c.function } }));
      if (m.covers) m.covers = { ...m.covers };
      if (m.parts) m.parts = copyParts(m.parts);
      nodes.link(m, unitEnd);
      messages[i] = m;
    }
    return { nodes, head: checkHead(checked.head ?? null, nodes.size, fail, nodes), messages };
  } catch (error) {
    nodes.drop();
    throw error;
  }
}
