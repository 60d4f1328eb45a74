import { CtxloomError } from "../errors.js";
import type { ChatExport } from "../store/portable.js";
import type { Role, ToolCall } from "../message.js";

/** A format the importers read (ImportOptions.format; "auto" detects one from the file's shape). */
export type ImportFormat = "chatgpt" | "openwebui" | "librechat" | "oasst" | "sharegpt" | "openai" | "ctxloom";
/** Every ImportFormat. */
export const IMPORT_FORMATS = [
  "chatgpt",
  "openwebui",
  "librechat",
  "oasst",
  "sharegpt",
  "openai",
  "ctxloom",
] as const satisfies readonly ImportFormat[];

/** Options of `parseExport`, `parseExportStream` and `importConversations`. */
export interface ImportOptions {
  /** Which format the file is in; "auto" (the default) detects it. */
  format?: ImportFormat | "auto";
  /** The model of the chats made; default: the export's model when ctxloom knows it, else "gpt-4o". */
  model?: string;
  /** Milliseconds since the epoch for chats and messages the export gives no time; default `Date.now()`. */
  now?: number;
}

/** Progress of a streamed import: bytes read so far (of `totalBytes` when known) and conversations parsed. */
export interface ImportProgress {
  /** Bytes read so far. */
  bytesRead: number;
  /** The file's size in bytes, when known. */
  totalBytes: number | undefined;
  /** Conversations parsed so far. */
  conversations: number;
}

/** What was done to one conversation on its way into a ChatExport. */
export interface ConversationReport {
  /** Where it was in the file ("conversation 3", "line 12"). */
  where: string;
  /** The export's own id for the conversation, when it has one. */
  sourceId: string | undefined;
  /** The title the chat gets. */
  title: string;
  /** The model the export names, when it names one. */
  sourceModel: string | undefined;
  /** Messages imported. */
  messages: number;
  /** Messages without replies: one per branch. */
  leaves: number;
  /** Source message id -> the imported message's id (0..n-1, parents first). */
  ids: Record<string, number>;
  /** Source nodes left out, by reason (e.g. "no message", "hidden", "empty"), with their ids. */
  skipped: Record<string, string[]>;
  /** Content that could not be kept as text and became a placeholder, by kind (e.g. "image"). */
  placeholders: Record<string, number>;
  /** Tool outputs that answer no call the export recorded: kept as user messages naming the tool. */
  toolResultsAsUser: number;
}

/** The result of parsing a file: one ChatExport per conversation, and what was done to each. */
export interface ParsedImport {
  /** The format the file was read in. */
  format: ImportFormat;
  /** One ChatExport per conversation, ready for `loom.user(id).import()`. */
  chats: ChatExport[];
  /** What was done to each conversation, in the order of `chats`. */
  reports: ConversationReport[];
}

/** A message as a format reader hands it to the tree builder, still under its source id. */
export interface RawNode {
  key: string;
  /** The source id of its parent; null for a root. */
  parent: string | null;
  role: Role;
  content: string;
  name?: string;
  toolCalls?: ToolCall[];
  /** For a tool message: the id of the call it answers; when absent, the builder looks for an open call by `name`. */
  toolCallId?: string;
  /** Milliseconds since the epoch, when the export gives one. */
  createdAt?: number;
  /** Why this node is left out (its children move up to its parent), e.g. "hidden". */
  skip?: string;
}

/** A conversation as a format reader hands it to the tree builder. */
export interface RawConversation {
  where: string;
  sourceId: string | undefined;
  title: string;
  sourceModel: string | undefined;
  system: string | null;
  createdAt: number | undefined;
  updatedAt: number | undefined;
  /** In the file's order (ties of creation time keep it). */
  nodes: RawNode[];
  /** The source id of the export's current node (before skipped nodes are passed over). */
  head: string | null;
  placeholders: Record<string, number>;
}

/** A conversation already in the portable format, checked, with its report. */
export interface BuiltChat {
  built: true;
  chat: ChatExport;
  report: ConversationReport;
}

/** Reads one record (an array element, a line, or the whole document) into conversations. */
export interface FormatReader {
  add(record: unknown, where: string): (RawConversation | BuiltChat)[];
  /** Conversations that need every record first (flat message lists). */
  finish(): RawConversation[];
}

/** An IMPORT_FAILED error naming where the file broke and what to do. */
export function importError(where: string, problem: string, cause?: unknown): CtxloomError {
  return new CtxloomError(
    "IMPORT_FAILED",
    `${where}: ${problem}. Nothing was imported; fix the file or pick its format with --format ` +
      `(${IMPORT_FORMATS.join(", ")}).`,
    cause === undefined ? undefined : { cause },
  );
}

/** A plain object's fields, or undefined when `value` is not a plain object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A non-empty string, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Milliseconds from seconds (number), milliseconds (number above 1e11) or an ISO date string. */
export function toMillis(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0)
    return Math.round(value > 1e11 ? value : value * 1000);
  if (typeof value === "string" && value.length > 0) {
    const t = Date.parse(value);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

/** The first line of `text`, clipped, as a title. */
export function titleFrom(text: string | undefined, fallback = "Imported chat"): string {
  const line = (text ?? "").trim().split("\n")[0]!.trim();
  if (line.length === 0) return fallback;
  return line.length > 80 ? line.slice(0, 79) + "…" : line;
}
