// Importers: chats exported from ChatGPT, Open WebUI, LibreChat, OpenAssistant, ShareGPT and
// OpenAI-format JSONL become ChatExports (every branch kept, the head where the export's
// current message is), then chats of a Loom user.
import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import type { ChatExport } from "../store/portable.js";
import { parseExport, parseExportStream, type StreamOptions } from "./parse.js";
import { importError, type ConversationReport, type ImportFormat, type ParsedImport } from "./types.js";

export { ImportParser, detectFormat, parseExport, parseExportStream, type StreamOptions } from "./parse.js";
export { JsonSplitter, type Piece } from "./splitter.js";
export {
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportOptions,
  type ImportProgress,
  type ConversationReport,
  type ParsedImport,
} from "./types.js";

/**
 * What importConversations needs of a Loom: `loom.user(id).import(exp)`, and `delete(chatId)` to take back a partial
 * import.
 */
export interface ImportTarget {
  /** The user's chats the conversations are imported into. */
  user(userId: string): { import(exp: ChatExport): Promise<{ id: string }>; delete?(chatId: string): Promise<void> };
}

/** What importConversations returns: the format read, and each chat made with its report. */
export interface ImportResult {
  /** The format the file was read in. */
  format: ImportFormat;
  /** Each chat made: its id, and the report of the conversation it came from. */
  chats: { id: string; report: ConversationReport }[];
}

/**
 * Imports every conversation of an export as a chat of `userId`. The whole file is parsed
 * and checked first: a broken file throws IMPORT_FAILED and no chat is made; should the
 * store fail on a later chat, the chats made before it are deleted again.
 * `data` is the file's text or bytes, or a stream of chunks (then only one conversation's
 * text is held whole at a time; `onProgress` reports bytes read).
 */
export async function importConversations(
  loom: ImportTarget,
  userId: string,
  data: string | Uint8Array | AsyncIterable<string | Uint8Array>,
  options?: StreamOptions,
): Promise<ImportResult> {
  if (loom === null || typeof loom !== "object" || typeof loom.user !== "function") {
    throw new CtxloomError("INVALID_ARGUMENT", `importConversations needs a Loom first; got ${describe(loom)}.`);
  }
  if (typeof userId !== "string" || userId.length === 0) {
    throw new CtxloomError("INVALID_ARGUMENT", `userId must be a non-empty string; got ${describe(userId)}.`);
  }
  checkOptions(options, "Import options");
  const parsed: ParsedImport =
    typeof data === "string" || data instanceof Uint8Array
      ? parseExport(data, options && withoutStreamKeys(options))
      : await parseExportStream(data, options);
  const chats = loom.user(userId);
  const out: ImportResult = { format: parsed.format, chats: [] };
  let at = "";
  try {
    for (const [i, exp] of parsed.chats.entries()) {
      at = parsed.reports[i]!.where;
      const { id } = await chats.import(exp);
      out.chats.push({ id, report: parsed.reports[i]! });
    }
  } catch (e) {
    // A store that fails midway: the chats made so far are taken back, when the target can.
    if (chats.delete) for (const { id } of out.chats) await chats.delete(id).catch(() => {});
    // A conversation the chat refused (a rule the parse does not know): the file is broken there.
    if (e instanceof CtxloomError && REFUSED.has(e.code))
      throw importError(at, e.message.replace(/\s*Nothing was imported;.*$/s, "").replace(/\.$/, ""), e);
    throw e;
  }
  return out;
}

/** Codes of a chat refusing what it was given (rather than of a store failing). */
const REFUSED = new Set<string>([
  "INVALID_ARGUMENT",
  "INVALID_ROLE",
  "INVALID_PRIORITY",
  "INVALID_CONTENT",
  "INVALID_TOOL_CALL",
  "UNKNOWN_MESSAGE",
  "UNKNOWN_MODEL",
  "MESSAGE_TOO_LARGE",
]);

/** The options a text or bytes import passes on: progress is a stream's; a bad one is still refused. */
function withoutStreamKeys(options: StreamOptions): StreamOptions {
  const { totalBytes, onProgress, ...rest } = options;
  if (onProgress !== undefined && typeof onProgress !== "function") {
    throw new CtxloomError("INVALID_ARGUMENT", `onProgress must be a function; got ${describe(onProgress)}.`);
  }
  if (totalBytes !== undefined) checkInteger(totalBytes, "totalBytes", 0);
  return rest;
}
