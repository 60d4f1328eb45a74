/**
 * Making a chat for a user's list (the concern of `UserChats.create`, `preflight` and `import`): checking what
 * a new chat takes, choosing its id, writing it to the store, and registering it in the Loom's open chats
 * before the write, so that close() waits for it.
 */
import { CtxloomError, checkOptions, describe, fromStore } from "../errors.js";
import { checkContent, type MessageInput } from "../message.js";
import { budgetFor, checkSplit } from "../models/budget.js";
import { checkHistoryLimits, isLanguageModel, type ModelProfile } from "../models/profiles.js";
import type { ChatExport } from "../store/portable.js";
import type { ChatRecord } from "../store/types.js";
import type { TokenCounter } from "../tokens/index.js";
import { Chat } from "./chat.js";
import { ChatNodes } from "./nodes.js";
import { buildImport, checkExport } from "./chat-export.js";
import { checkKept, modelOf } from "./chat-record.js";
import { residentColumns, type LoomContext } from "./sync.js";
import { chatExists, checkNewChatId, newChatId } from "./chat-list.js";
import { DEFAULT_TOOL_RESULTS, checkToolResultLevel, toolResultPolicy } from "../models/tool-results.js";
import { CREATE_KEYS, settingsOf, type CreateChatOptions } from "./create-options.js";
import { keptSummaries } from "../summary/settings.js";
import { checkReasoningTurns } from "../models/reasoning.js";
import { preflight } from "./preflight.js";
import type { BuildOptions } from "../context/types.js";
import { importOwnMemory } from "./chat-memory.js";
import { openKey, type ChatCache } from "./chat-cache.js";

/** `UserChats.create(options)`: an empty chat of the user, open. */
export async function createChat(
  ctx: LoomContext,
  open: ChatCache,
  userId: string,
  options: CreateChatOptions | undefined,
): Promise<Chat> {
  ctx.checkOpen();
  const o = checkOptions<CreateChatOptions>(options, "create(options)", CREATE_KEYS);
  const text = (value: unknown, what: string, fallback: string | null): string | null => {
    if (value === undefined) return fallback;
    if (typeof value !== "string")
      throw new CtxloomError("INVALID_ARGUMENT", `${what} must be a string; got ${describe(value)}.`);
    return checkContent(value, what);
  };
  const title = text(o.title, "title", "")!;
  const system = text(o.system, "system", null);
  const id = o.id === undefined ? newChatId() : checkNewChatId(o.id);
  const settings = settingsOf(o, "create(options)");
  // Kept with the chat: its summaries' tokens are counted as this presentation sends them.
  const loom = ctx.summaries;
  const summaries = keptSummaries(settings.summaries, typeof loom === "object" ? loom.presentation : undefined, loom);
  if (summaries !== undefined) settings.summaries = summaries;
  const { profile, counter } = await ctx.prepare(o.model ?? "gpt-4o");
  if (typeof o.model === "object" && !isLanguageModel(o.model)) {
    const { counter: own, ...stored } = profile;
    settings.profile = stored;
    if (own) settings.counter = own.name;
  }
  const now = Date.now();
  const record: ChatRecord = {
    id,
    userId: userId,
    title,
    model: profile.name,
    system,
    createdAt: now,
    updatedAt: now,
    messageCount: 0,
    head: null,
    options: settings,
  };
  checkKept(record, "create(options)"); // a profile's name, its counter's
  // A chat of this id open in this Loom (or being created): CHAT_EXISTS. Elsewhere, the store decides.
  const key = openKey(userId, id);
  for (let pending = open.get(key); pending && o.id !== undefined; pending = open.get(key)) {
    if (await stands(pending)) throw chatExists(userId, id);
  }
  ctx.checkOpen(); // the Loom may have closed while the tokenizer loaded
  // (No await from the loop's last look to the registration: two creates of one id here, one is made.)
  return register(
    ctx,
    open,
    userId,
    record,
    async () => {
      try {
        await fromStore("creating the chat", () => ctx.store.createChat(record));
      } catch (error) {
        throw isChatExists(error) ? chatExists(userId, id) : error;
      }
      return new ChatNodes(ctx.engine, residentColumns(ctx.store, userId, record.id));
    },
    profile,
    counter,
  );
}

/** `UserChats.preflight`: the checks of `chat.preflight(inputs, build)` for the chat `create(options)` would make. */
export async function preflightCreate(
  ctx: LoomContext,
  options: CreateChatOptions | undefined,
  inputs: readonly MessageInput[],
  build: BuildOptions | undefined,
): Promise<void> {
  ctx.checkOpen();
  const o = checkOptions<CreateChatOptions>(options, "create(options)", CREATE_KEYS);
  const budget = o.budget === undefined ? undefined : checkSplit(o.budget);
  const historyLimits = o.historyLimits === undefined ? undefined : checkHistoryLimits(o.historyLimits);
  const { profile, counter } = await ctx.prepare(o.model ?? "gpt-4o");
  const { effective, reserve } = budgetFor(profile, { budget });
  const toolResults = toolResultPolicy(
    checkToolResultLevel(o.toolResults, "create(options).toolResults"),
    ctx.toolResults ?? DEFAULT_TOOL_RESULTS,
  );
  const reasoningTurns = checkReasoningTurns(o.reasoningTurns, "create(options).reasoningTurns") ?? ctx.reasoningTurns;
  preflight(
    {
      profile,
      counter,
      system: typeof o.system === "string" ? o.system : null,
      budget,
      historyLimits,
      appendLimit: effective - reserve,
      recall: ctx.recall,
      strictModels: ctx.strictModels === true,
      toolResults,
      reasoningTurns,
    },
    inputs,
    build,
  );
}

/** `UserChats.import(data)`: an export as a new chat of the user, with the export's id unless the user has it. */
export async function importChat(
  ctx: LoomContext,
  open: ChatCache,
  userId: string,
  data: ChatExport | string,
): Promise<Chat> {
  ctx.checkOpen();
  const checked = checkExport(data, ctx.summaries);
  checkKept({ ...checked.chat, options: checked.options }, "This chat export cannot be imported");
  const { profile, counter } = await ctx.prepare(
    modelOf({ id: checked.chat.id ?? "(import)", model: checked.chat.model, options: checked.options }),
  );
  // The export's id when this user has no chat of it (open here, or in the store), else a new one.
  const wanted = checked.chat.id;
  const key = openKey(userId, wanted ?? "");
  let free = wanted !== undefined;
  for (let pending = open.get(key); pending && free; pending = open.get(key)) free = !(await stands(pending));
  if (free) free = !(await stored(ctx, userId, wanted!));
  ctx.checkOpen();
  const { nodes, head, messages } = buildImport(ctx.engine, checked, counter);
  const c = checked.chat;
  const write = (id: string) => {
    const record: ChatRecord = {
      id,
      userId: userId,
      title: c.title,
      model: profile.name,
      system: c.system,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      messageCount: messages.length,
      head: head < 0 ? null : head,
      options: checked.options,
    };
    return register(
      ctx,
      open,
      userId,
      record,
      async () => {
        await fromStore("importing the chat", () => ctx.store.importChat(record, messages));
        await importOwnMemory(ctx, userId, checked.chat.id, id, checked.memory);
        nodes.adopt(residentColumns(ctx.store, userId, id)); // the text is then held once
        return nodes;
      },
      profile,
      counter,
    );
  };
  try {
    // (Made in this Loom since it was looked up: a new id.)
    if (free && !open.get(key)) {
      try {
        return await write(wanted!);
      } catch (error) {
        if (!isChatExists(error)) throw error;
        ctx.checkOpen(); // another Loom sharing the store made a chat of that id meanwhile: a new id
      }
    }
    return await write(newChatId());
  } catch (error) {
    nodes.drop();
    throw error;
  }
}

/** Registers a new chat in the cache before its store write, so that close() waits for it. */
function register(
  ctx: LoomContext,
  open: ChatCache,
  userId: string,
  record: ChatRecord,
  write: () => Promise<ChatNodes>,
  profile: Readonly<ModelProfile>,
  counter: TokenCounter,
): Promise<Chat> {
  const key = openKey(userId, record.id);
  const loading = write().then(
    (nodes) => new Chat(ctx, record, nodes, profile, counter, open),
    (error: unknown) => {
      open.delete(key, loading);
      throw error;
    },
  );
  open.set(key, loading);
  return loading;
}

/** True when the store holds a chat of this id for the user (Store.hasChat). */
async function stored(ctx: LoomContext, userId: string, id: string): Promise<boolean> {
  const has = await fromStore("looking the chat up", () => ctx.store.hasChat(userId, id));
  if (typeof has !== "boolean")
    throw new CtxloomError(
      "STORE_CORRUPT",
      `The store answered ${describe(has)} to hasChat for chat ${describe(id)}, not true or false.`,
    );
  return has;
}

/** Whether a chat loading (or being created) in the Loom came to be: true when it did. */
const stands = (pending: Promise<Chat>): Promise<boolean> =>
  pending.then(
    () => true,
    () => false,
  );
/** The store's CHAT_EXISTS: the user has a chat of that id already. */
const isChatExists = (error: unknown): boolean => error instanceof CtxloomError && error.code === "CHAT_EXISTS";
