// `ctxloom erase` and `ctxloom prune`: a user's erasure and retention, for operators of the chat database.
import type { Loom } from "../chat/loom.js";
import type { CommandContext } from "./io.js";
import { typed, valueOf } from "./help.js";
import { plural } from "./render.js";

const UNITS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** A duration as typed ("90d", "12h", "30m", "45s") in ms. @throws a usage error saying what was typed */
function duration(ctx: CommandContext, name: string): number | undefined {
  const text = ctx.values[name] as string | undefined;
  if (text === undefined) return undefined;
  const found = /^(\d+)([dhms])$/.exec(text);
  if (!found) throw ctx.usage(`--${name} takes ${valueOf("prune", name)}; got ${typed(text)}.`);
  return Number(found[1]) * UNITS[found[2]!]!;
}

/** A whole number from 1 as typed, or undefined. */
function count(ctx: CommandContext, name: string): number | undefined {
  const text = ctx.values[name] as string | undefined;
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text)))
    throw ctx.usage(`--${name} takes ${valueOf("prune", name)}; got ${typed(text)}.`);
  return Number(text);
}

export async function eraseCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const user = ctx.values.user as string | undefined;
  if (user === undefined)
    throw ctx.usage(
      "erase needs --user <id>: the user whose chats, messages and vectors are erased. Nothing was erased.",
    );
  const erased = await loom.user(user).erase();
  if (ctx.values.json) return ctx.io.out(JSON.stringify({ user, ...erased }, null, 2));
  ctx.io.out(
    `erased user ${JSON.stringify(user)}: ${plural(erased.chats, "chat", "chats")}, ` +
      `${plural(erased.messages, "message", "messages")}; the database file was rebuilt, so no byte of them is left ` +
      `in it or its log.`,
  );
}

export async function pruneCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const idleFor = duration(ctx, "idle-for");
  const keepNewest = count(ctx, "keep-newest");
  const batchSize = count(ctx, "batch-size");
  if (idleFor === undefined && keepNewest === undefined)
    throw ctx.usage(
      "prune needs --idle-for <duration>, --keep-newest <n>, or both: which chats go. Nothing was removed.",
    );
  const report = await loom.prune({
    ...(idleFor === undefined ? {} : { idleFor }),
    ...(keepNewest === undefined ? {} : { keepNewest }),
    ...(batchSize === undefined ? {} : { batchSize }),
  });
  const vacuum = ctx.values.vacuum === true && typeof (ctx.store as { vacuum?: unknown }).vacuum === "function";
  if (vacuum) await (ctx.store as unknown as { vacuum(): Promise<void> }).vacuum();
  if (ctx.values.json) return ctx.io.out(JSON.stringify({ ...report, vacuumed: vacuum }, null, 2));
  ctx.io.out(
    `removed ${plural(report.chats, "chat", "chats")} ` +
      `(${plural(report.messages, "message", "messages")})${vacuum ? "; the database file was rebuilt" : ""}.`,
  );
  for (const c of report.removed.slice(0, 20))
    ctx.io.out(
      `  ${c.userId}/${c.chatId}  last written ` +
        `${new Date(c.updatedAt).toISOString().slice(0, 16).replace("T", " ")}  ${c.messageCount} msgs`,
    );
  if (report.removed.length > 20) ctx.io.out(`  ... and ${report.removed.length - 20} more (--json lists them all)`);
}
