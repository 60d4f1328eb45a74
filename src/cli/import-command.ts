// `ctxloom import`: every conversation of the files becomes a chat, once. Each chat remembers
// the conversation it came from (its options' `source`: the format and the export's id for
// it), so that importing the same export again adds what is new instead of making copies.
import { createHash } from "node:crypto";
import { createReadStream, statSync } from "node:fs";
import { CtxloomError } from "../errors.js";
import {
  IMPORT_FORMATS,
  parseExportStream,
  type ConversationReport,
  type ImportFormat,
  type ParsedImport,
} from "../import/index.js";
import type { ChatExport } from "../store/portable.js";
import type { ChatOptions } from "../store/types.js";
import type { Loom } from "../chat/loom.js";
import { importChat } from "./chat-io.js";
import { typed, valueOf } from "./help.js";
import { inputError, type CommandContext } from "./io.js";
import { mergeInto } from "./merge.js";
import { clip, megabytes, plural, progressLine } from "./render.js";

type Source = { format: string; id: string };
/**
 * What became of a conversation: a new chat, new messages added to the chat made from it before, nothing new, or not
 * updated (why in `reason`).
 */
type Status = "imported" | "updated" | "unchanged" | "refused";

const sourceKey = (s: Source) => `${s.format}\n${s.id}`;

/**
 * The conversation's source: the one a ctxloom export carries (the chat's original import),
 * else the format and the export's id for it, else a fingerprint of its messages.
 */
function sourceOf(format: ImportFormat, exp: ChatExport, report: ConversationReport): Source {
  const carried = exp.chat.options?.source;
  if (carried) return carried;
  if (report.sourceId) return { format, id: report.sourceId };
  const fields = exp.messages.map((m) => [
    m.parentId,
    m.role,
    m.content,
    m.name ?? null,
    m.toolCalls ?? null,
    m.toolCallId ?? null,
    m.parts ?? null,
  ]);
  const digest = createHash("sha256")
    .update(JSON.stringify([exp.chat.title, exp.chat.system, fields]))
    .digest("hex");
  return { format, id: `sha256:${digest.slice(0, 32)}` };
}

/** Reads and checks every file before any chat is made. @throws IMPORT_FAILED naming the file */
async function parseFiles(
  ctx: CommandContext,
  format: ImportFormat | "auto",
  draw: (text: string, force?: boolean) => void,
) {
  const files = ctx.positionals.map((file) => {
    try {
      return { file, size: statSync(file).size };
    } catch (e) {
      throw inputError(file, e);
    }
  });
  const total = files.reduce((s, f) => s + f.size, 0);
  let before = 0;
  const parsed: { file: string; result: ParsedImport }[] = [];
  for (const { file, size } of files) {
    const options = { format, totalBytes: size, ...(ctx.values.model ? { model: ctx.values.model as string } : {}) };
    try {
      const result = await parseExportStream(createReadStream(file), {
        ...options,
        onProgress: (p) =>
          draw(
            progressLine(
              before + p.bytesRead,
              total,
              `${megabytes(before + p.bytesRead)} read, ${p.conversations} conversations`,
            ),
            p.bytesRead === size,
          ),
      });
      parsed.push({ file, result });
    } catch (e) {
      draw("\n", true);
      const err = inputError(file, e);
      throw err.code === "IMPORT_FAILED" ? new CtxloomError(err.code, `${file}: ${err.message}`, { cause: err }) : err;
    }
    before += size;
  }
  return parsed;
}

export async function importCommand(ctx: CommandContext, loom: Loom): Promise<void> {
  const format = ctx.values.format as string;
  if (format !== "auto" && !IMPORT_FORMATS.includes(format as ImportFormat)) {
    throw ctx.usage(`--format takes ${valueOf("import", "format")}; got ${typed(format)}.`);
  }
  const copy = ctx.values.copy === true;
  // Redrawn at most every 100 ms (and at the end of each phase).
  let drawnAt = 0;
  const draw = (text: string, force = false) => {
    if (!ctx.io.progress) return;
    const now = Date.now();
    if (!force && now - drawnAt < 100) return;
    drawnAt = now;
    ctx.io.err(text);
  };
  const parsed = await parseFiles(ctx, format as ImportFormat | "auto", draw);
  const user = ctx.values.user as string;
  const chats = loom.user(user);
  // The conversations this user's chats were imported from (the records' options: no chat is loaded).
  const bySource = new Map<string, string>();
  for (const r of await ctx.store.listChats(user))
    if (r.options?.source) bySource.set(sourceKey(r.options.source), r.id);
  const count = parsed.reduce((s, p) => s + p.result.chats.length, 0);
  let done = 0;
  const out = [];
  const made: string[] = [];
  try {
    for (const { file, result } of parsed) {
      const list = [];
      for (const [i, exp] of result.chats.entries()) {
        const r = result.reports[i]!;
        const source = sourceOf(result.format, exp, r);
        const before = bySource.get(sourceKey(source));
        let id: string;
        let status: Status = "imported";
        let ids = r.ids;
        let added: number | undefined;
        let reason: string | undefined;
        if (before === undefined || copy) {
          // A copy carries no source when a chat has it already: later imports update that chat.
          const { source: _carried, ...kept } = exp.chat.options ?? {};
          const options: ChatOptions = kept;
          if (before === undefined) options.source = source;
          ({ id } = await importChat(chats, { ...exp, chat: { ...exp.chat, options } }));
          made.push(id);
          if (before === undefined) bySource.set(sourceKey(source), id);
        } else {
          id = before;
          const merged = await mergeInto(await chats.open(id), exp);
          if ("refused" in merged)
            [status, reason] = ["refused", `${merged.refused}; --copy imports this version as a new chat`];
          else {
            [status, added] = [merged.added > 0 ? "updated" : "unchanged", merged.added];
            ids = Object.fromEntries(Object.entries(r.ids).map(([key, at]) => [key, merged.ids[at]!]));
          }
        }
        list.push({
          id,
          status,
          ...(added !== undefined ? { added } : {}),
          ...(reason ? { reason } : {}),
          title: r.title,
          messages: r.messages,
          leaves: r.leaves,
          sourceId: r.sourceId,
          skipped: r.skipped,
          placeholders: r.placeholders,
          toolResultsAsUser: r.toolResultsAsUser,
          ids,
        });
        draw(progressLine(++done, count, `${done} of ${count} chats stored`), done === count);
      }
      out.push({ file, format: result.format, chats: list });
    }
  } catch (e) {
    // Nothing half-imported: the chats made before the failure go again (messages an update added stay).
    draw("\n", true);
    for (const id of made) await chats.delete(id).catch(() => {});
    throw e;
  }
  draw("\r\x1b[K", true);
  if (ctx.values.json) return void ctx.io.out(JSON.stringify({ files: out }, null, 2));
  for (const f of out) printFile(ctx, f);
}

type Reported = {
  id: string;
  status: Status;
  added?: number;
  reason?: string;
  title: string;
  messages: number;
  leaves: number;
} & Pick<ConversationReport, "skipped" | "placeholders" | "toolResultsAsUser">;

function printFile(ctx: CommandContext, f: { file: string; format: string; chats: Reported[] }): void {
  const fresh = f.chats.filter((c) => c.status === "imported");
  const messages = fresh.reduce((s, c) => s + c.messages, 0);
  const others = (["updated", "unchanged", "refused"] as const)
    .map(
      (s) =>
        [
          f.chats.filter((c) => c.status === s).length,
          s === "unchanged" ? "unchanged (imported before)" : s === "refused" ? "not updated" : s,
        ] as const,
    )
    .filter(([n]) => n > 0)
    .map(([n, s]) => `, ${n} ${s}`);
  ctx.io.out(`${f.file}: ${f.format}, ${fresh.length} chat(s), ${messages} messages${others.join("")}`);
  const notes = new Map<string, number>();
  const note = (k: string, v: number) => notes.set(k, (notes.get(k) ?? 0) + v);
  for (const c of fresh) {
    for (const [k, v] of Object.entries(c.placeholders)) note(`${k} placeholders`, v);
    for (const [k, v] of Object.entries(c.skipped)) note(`left out (${k})`, v.length);
    if (c.toolResultsAsUser) note("tool outputs kept as user messages", c.toolResultsAsUser);
  }
  if (notes.size) ctx.io.out(`  ${[...notes].map(([k, v]) => `${v} ${k}`).join(", ")}`);
  for (const c of f.chats) {
    const what =
      c.status === "imported"
        ? `${plural(c.messages, "message", "messages")}, ${plural(c.leaves, "branch", "branches")}`
        : c.status === "updated"
          ? `updated: ${plural(c.added!, "new message", "new messages")}`
          : c.status === "unchanged"
            ? "imported before, nothing new"
            : `not updated: ${c.reason}`;
    ctx.io.out(`  ${c.id}  ${clip(c.title, 50)}  (${what})`);
  }
}
