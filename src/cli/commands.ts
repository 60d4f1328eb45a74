// The commands of `ctxloom`, each given its parsed arguments and an open Loom.
import { CtxloomError } from "../errors.js";
import { toOpenAI } from "../context/format.js";
import { getModelProfile, listModels, withContextWindow } from "../models/profiles.js";
import type { ModelRef } from "../models/types.js";
import type { Chat } from "../chat/chat.js";
import type { Loom } from "../chat/loom.js";
import { exportChat } from "./chat-io.js";
import { typed, valueOf, VALUES } from "./help.js";
import { importCommand } from "./import-command.js";
import { eraseCommand, pruneCommand } from "./retention-commands.js";
import type { CommandContext } from "./io.js";
import { budgetLines, clip, plural } from "./render.js";
import { drawTree } from "./tree-view.js";

type Command = (ctx: CommandContext, loom: Loom) => Promise<void>;

const json = (ctx: Pick<CommandContext, "io">, value: unknown) => ctx.io.out(JSON.stringify(value, null, 2));

/** A whole number from 0 as typed (`what` names it in the message). @throws a usage error saying what was typed */
function whole(ctx: CommandContext, text: string, what: string, takes: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) throw ctx.usage(`${what} takes ${takes}; got ${typed(text)}.`);
  return n;
}
/** The whole-number option `--name`, or `fallback` when it is not given. */
const option = (ctx: CommandContext, name: string, fallback: number): number => {
  const v = ctx.values[name] as string | undefined;
  return v === undefined ? fallback : whole(ctx, v, `--${name}`, valueOf("", name));
};

/**
 * The model of --model and --context-window: the name, or the model (the chat's without
 * --model) with its window given by hand; undefined for the chat's own.
 */
function modelOption(ctx: CommandContext, chat: Chat): ModelRef | undefined {
  const name = ctx.values.model as string | undefined;
  const typedWindow = ctx.values["context-window"] as string | undefined;
  if (typedWindow === undefined) return name;
  const window = whole(ctx, typedWindow, "--context-window", valueOf("", "context-window"));
  if (window < 16)
    throw ctx.usage(`--context-window takes ${valueOf("", "context-window")}; got ${typed(typedWindow)}.`);
  return withContextWindow(name ?? chat.stats().model, window);
}

/** A chat by id, unique id prefix, or exact title. @throws UNKNOWN_CHAT naming the near ones */
async function findChat(ctx: CommandContext, loom: Loom, ref: string): Promise<Chat> {
  const chats = loom.user(ctx.values.user as string);
  const list = await chats.list();
  const exact = list.find((c) => c.id === ref);
  const byPrefix = list.filter((c) => c.id.startsWith(ref));
  const byTitle = list.filter((c) => c.title === ref);
  const match = exact ?? (byPrefix.length === 1 ? byPrefix[0] : byTitle.length === 1 ? byTitle[0] : undefined);
  if (match) return chats.open(match.id);
  const many = byPrefix.length > 1 ? byPrefix : byTitle;
  throw new CtxloomError(
    "UNKNOWN_CHAT",
    many.length > 1
      ? `${JSON.stringify(ref)} names ${many.length} chats (${many
          .slice(0, 5)
          .map((c) => c.id)
          .join(", ")}); give more of the id.`
      : `no chat ${JSON.stringify(ref)} for user ${JSON.stringify(ctx.values.user)}; run ctxloom chats for the list.`,
  );
}

async function chatsCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const list = await loom.user(ctx.values.user as string).list();
  if (ctx.values.json) return json(ctx, list);
  if (list.length === 0)
    return ctx.io.out(`no chats for user ${JSON.stringify(ctx.values.user)}; add some with ctxloom import <file>.`);
  for (const c of list)
    ctx.io.out(
      `${c.id}  ${new Date(c.updatedAt).toISOString().slice(0, 16).replace("T", " ")}  ` +
        `${String(c.messageCount).padStart(5)} msgs  ${c.model.padEnd(14)} ${clip(c.title, 50)}`,
    );
}

async function treeCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  if (ctx.values.json) {
    const messages = Array.from({ length: chat.messageCount }, (_, id) => chat.get(id)).map(
      ({ id, parentId, role, content }) => ({ id, parentId, role, content }),
    );
    return json(ctx, { id: chat.id, title: chat.title, head: chat.head, leaves: chat.leaves(), messages });
  }
  ctx.io.out(
    `${chat.title} (${chat.id}), ${plural(chat.messageCount, "message", "messages")}, ` +
      `${plural(chat.leaves().length, "branch", "branches")}, head #${chat.head}`,
  );
  if (chat.messageCount > 0) ctx.io.out(drawTree(chat));
}

async function showCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const at = ctx.values.at === undefined ? undefined : option(ctx, "at", 0);
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  const path = chat.messageCount === 0 ? [] : chat.path(at);
  if (ctx.values.json) return json(ctx, path);
  if (chat.system) ctx.io.out(`[system prompt] ${chat.system}\n`);
  for (const m of path) {
    const name = m.name ? ` (${m.name})` : "";
    const head = m.id === chat.head ? "  <- head" : "";
    const calls = (m.toolCalls ?? []).map((c) => `[call ${c.function.name}] ${c.function.arguments}`).join("\n");
    ctx.io.out(`#${m.id} ${m.role}${name}${head}\n${m.content || calls}\n`);
  }
}

async function checkoutCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const id = whole(ctx, ctx.positionals[1]!, "checkout", `${VALUES.at} after the chat`);
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  const m = await chat.checkout(id);
  if (ctx.values.json) return json(ctx, { chat: chat.id, head: chat.head });
  ctx.io.out(`head of ${chat.id} is now #${m.id} (${m.role}: ${clip(m.content, 60)})`);
}

async function contextCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const model = ctx.values.model as string | undefined;
  const format = ctx.values.format as string;
  if (format !== "openai" && format !== "anthropic")
    throw ctx.usage(`--format takes ${valueOf("context", "format")}; got ${typed(format)}.`);
  // An unknown model is refused before the chat is looked up (with --context-window, any name is described by it).
  if (model !== undefined && ctx.values["context-window"] === undefined) getModelProfile(model);
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  // Without --model, the chat's own model (and its budget split) sets the window.
  const options = {
    model: modelOption(ctx, chat),
    format,
    system: ctx.values.system,
    memory: ctx.values.memory,
    input: ctx.values.input,
  };
  for (const k of ["model", "system", "memory", "input"] as const) if (options[k] === undefined) delete options[k];
  const built = await chat.buildContext(options as Parameters<Chat["buildContext"]>[0] & { format: "openai" });
  const { usage: u, budget } = built;
  if (ctx.values.json) return json(ctx, built);
  for (const m of built.messages)
    ctx.io.out(
      `${m.role.padEnd(9)} ${clip(typeof m.content === "string" ? m.content : JSON.stringify(m.content), 100)}`,
    );
  ctx.io.out(`\n${built.model}: ${built.messages.length} messages, ${built.evicted} left out`);
  // The conversation may use what the other parts leave of their slices: its bar is against
  // that room, so that no bar reads as past its limit while the total is within it.
  const room = u.limit - (u.total - u.conversation);
  const lines = budgetLines([
    ["system", u.system, budget.system],
    ["memory", u.memory, budget.memory],
    ["conversation", u.conversation, room],
    ["input", u.input, budget.input],
    ["total", u.total, u.limit],
  ]);
  for (const line of lines) ctx.io.out(line);
  if (room > budget.conversation)
    ctx.io.out(`(conversation: its slice of ${budget.conversation} and what the other parts leave)`);
}

async function statsCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  const stats = { leaves: chat.leaves().length, head: chat.head, ...chat.stats() };
  if (ctx.values.json) return json(ctx, stats);
  for (const [k, v] of Object.entries(stats))
    ctx.io.out(`${k.padEnd(16)} ${v !== null && typeof v === "object" ? JSON.stringify(v) : String(v)}`);
}

async function summarizeCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const keepLast = option(ctx, "keep-last", 20);
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  const model = modelOption(ctx, chat);
  const before = chat.messageCount;
  // A trigger of one token: summarize now, whatever the conversation's size.
  const built = await chat.buildContext({
    summaries: { trigger: { tokens: 1 }, select: { keepLast } },
    ...(model ? { model } : {}),
  });
  const made = chat.messageCount > before ? chat.get(chat.messageCount - 1) : null;
  const stats = chat.stats();
  if (ctx.values.json)
    return json(ctx, {
      chat: chat.id,
      summary: made,
      compressions: stats.compressions,
      tokensSaved: stats.tokensSaved,
      usage: built.usage,
    });
  if (!made)
    return ctx.io.out(
      `nothing to summarize in ${chat.id}: its active branch has too few messages before the newest ${keepLast} (or ` +
        `only critical ones).`,
    );
  const { first, last } = made.covers!;
  ctx.io.out(
    `summary #${made.id} of ${chat.id} covers #${first}..#${last}; the next context sends ${built.usage.total} ` +
      `tokens (${built.messages.length} messages).`,
  );
  ctx.io.out(
    `${stats.compressions} summar${stats.compressions === 1 ? "y" : "ies"} in the chat, ${stats.tokensSaved} tokens ` +
      `saved.\n`,
  );
  ctx.io.out(made.content);
}

async function recallCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const scope = ctx.values.scope as string;
  if (scope !== "branch" && scope !== "chat" && scope !== "user")
    throw ctx.usage(`--scope takes ${valueOf("recall", "scope")}; got ${typed(scope)}.`);
  const options = { scope, prompts: option(ctx, "prompts", 2), recent: option(ctx, "recent", 0) } as const;
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  const found = await chat.recall(ctx.positionals.slice(1).join(" "), options);
  if (ctx.values.json) return json(ctx, found);
  if (found.length === 0) return ctx.io.out("nothing recalled.");
  for (const r of found) {
    const score = r.score === null ? "   -  " : r.score.toFixed(3).padStart(6);
    const where = r.chatId === chat.id ? "" : ` (chat ${r.chatId})`;
    ctx.io.out(
      `${score} ${r.reason.padEnd(7)} #${String(r.message.id).padEnd(5)} ${r.message.role.padEnd(9)} ` +
        `${clip(r.message.content, 80)}${where}`,
    );
  }
}

async function exportCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const format = ctx.values.format as string;
  if (format !== "json" && format !== "openai-jsonl")
    throw ctx.usage(`--format takes ${valueOf("export", "format")}; got ${typed(format)}.`);
  const chat = await findChat(ctx, loom, ctx.positionals[0]!);
  if (format === "json") return json(ctx, await exportChat(chat));
  // One line per branch, root to leaf, the chat's system prompt first.
  const system = chat.system ? [{ role: "system" as const, content: chat.system }] : [];
  for (const leaf of chat.leaves())
    ctx.io.out(JSON.stringify({ messages: [...system, ...chat.path(leaf).map(toOpenAI)] }));
}

/** `ctxloom models`, which opens no store. */
export async function modelsCommand(ctx: Omit<CommandContext, "store">): Promise<void> {
  const filter = (ctx.positionals[0] ?? "").toLowerCase();
  const models = listModels()
    .filter((name) => name.toLowerCase().includes(filter))
    .sort()
    .map((name) => {
      const p = getModelProfile(name);
      return {
        name,
        contextWindow: p.contextWindow,
        sizeClass: p.sizeClass,
        encoding: p.encoding ?? null,
        tokensPerChar: p.tokensPerChar,
      };
    });
  if (ctx.values.json) return json(ctx, models);
  if (models.length === 0) return ctx.io.out(`no model's name contains ${JSON.stringify(filter)}.`);
  for (const m of models)
    ctx.io.out(
      `${m.name.padEnd(36)} ${String(m.contextWindow).padStart(9)} tokens  ${m.sizeClass.padEnd(7)} ` +
        `${m.encoding ?? `~${m.tokensPerChar} tokens/char`}`,
    );
}

export const COMMANDS: Record<string, Command> = {
  import: importCommand,
  chats: chatsCommand,
  tree: treeCommand,
  show: showCommand,
  checkout: checkoutCommand,
  context: contextCommand,
  stats: statsCommand,
  summarize: summarizeCommand,
  recall: recallCommand,
  export: exportCommand,
  erase: eraseCommand,
  prune: pruneCommand,
};
