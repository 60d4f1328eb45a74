import { CtxloomError, checkInteger, checkOptions, describe } from "../errors.js";
import { loneIn, storedMessageProblem } from "../message.js";
import { getModelProfile } from "../models/profiles.js";
import type { ChatExport } from "../store/portable.js";
import { buildChat } from "./build.js";
import { chatgptReader, isChatGPT } from "./formats/chatgpt.js";
import { ctxloomReader, isCtxloom } from "./formats/ctxloom.js";
import { librechatReader, isLibreChat } from "./formats/librechat.js";
import { isOasstFlat, isOasstTree, oasstReader } from "./formats/oasst.js";
import { isOpenAIChat, isOpenAIMessage, openaiReader } from "./formats/openai.js";
import { isOpenWebUI, openwebuiReader } from "./formats/openwebui.js";
import { isShareGPT, sharegptReader } from "./formats/sharegpt.js";
import { JsonSplitter, type Piece } from "./splitter.js";
import {
  IMPORT_FORMATS,
  asRecord,
  importError,
  type BuiltChat,
  type ConversationReport,
  type FormatReader,
  type ImportFormat,
  type ImportOptions,
  type ImportProgress,
  type ParsedImport,
  type RawConversation,
} from "./types.js";

/** Options of a streamed parse: the file's size for progress, and a progress callback. */
export interface StreamOptions extends ImportOptions {
  /** The whole size in bytes, when known (e.g. the file's size), for `onProgress`. */
  totalBytes?: number;
  /** Called after every chunk. */
  onProgress?: (progress: ImportProgress) => void;
}

const OPTION_KEYS = ["format", "model", "now", "totalBytes", "onProgress"];
const READERS: Record<ImportFormat, () => FormatReader> = {
  chatgpt: chatgptReader,
  openwebui: openwebuiReader,
  librechat: librechatReader,
  oasst: oasstReader,
  sharegpt: sharegptReader,
  openai: openaiReader,
  ctxloom: ctxloomReader,
};
/** Detection, in order: the first shape a record has names its format. */
const SHAPES: [ImportFormat, (r: Record<string, unknown>) => boolean][] = [
  ["ctxloom", isCtxloom],
  ["chatgpt", isChatGPT],
  ["openwebui", isOpenWebUI],
  ["librechat", isLibreChat],
  ["oasst", isOasstTree],
  ["oasst", isOasstFlat],
  ["sharegpt", isShareGPT],
  ["openai", isOpenAIChat],
  ["openai", isOpenAIMessage],
];

/** The format of a record, judged by its shape, or undefined. */
export function detectFormat(record: unknown): ImportFormat | undefined {
  const r = asRecord(record);
  return r && SHAPES.find(([, test]) => test(r))?.[0];
}

/**
 * An import under way: fed the file as chunks, it splits out each conversation, parses it
 * alone, checks it and turns it into a ChatExport. Nothing leaves it before `finish()`, which
 * returns every chat or throws: a broken file yields no chat at all.
 */
export class ImportParser {
  readonly #splitter = new JsonSplitter();
  readonly #options: { format: ImportFormat | "auto"; model: string | undefined; now: number };
  #format: ImportFormat | undefined;
  #reader: FormatReader | undefined;
  readonly #out: ParsedImport = { format: "openai", chats: [], reports: [] };
  #records = 0;

  constructor(options?: StreamOptions) {
    const o = checkOptions<StreamOptions>(options, "Import options", OPTION_KEYS);
    const format = o.format ?? "auto";
    if (format !== "auto" && !IMPORT_FORMATS.includes(format)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `format must be "auto" or one of ${IMPORT_FORMATS.join(", ")}; got ${describe(format)}.`,
      );
    }
    if (o.model !== undefined) getModelProfile(o.model);
    if (o.totalBytes !== undefined) checkInteger(o.totalBytes, "totalBytes", 0);
    if (o.onProgress !== undefined && typeof o.onProgress !== "function") {
      throw new CtxloomError("INVALID_ARGUMENT", `onProgress must be a function; got ${describe(o.onProgress)}.`);
    }
    this.#options = { format, model: o.model, now: o.now === undefined ? Date.now() : checkInteger(o.now, "now", 0) };
    if (format !== "auto") this.#use(format);
  }

  /** Conversations parsed so far. */
  get conversations(): number {
    return this.#out.chats.length;
  }

  /** Reads the next chunk of the file's text. */
  feed(text: string): void {
    for (const piece of this.#splitter.feed(text)) this.#record(piece);
  }

  /** Ends the file: the last conversations, or IMPORT_FAILED when the file is cut short or holds none. */
  finish(): ParsedImport {
    for (const piece of this.#splitter.end()) this.#record(piece);
    if (this.#reader) for (const conv of this.#reader.finish()) this.#build(conv);
    if (this.#records === 0) throw importError("the file", "it holds no conversation (an empty array)");
    if (this.#format) this.#out.format = this.#format;
    return this.#out;
  }

  #use(format: ImportFormat): void {
    this.#format = format;
    this.#reader = READERS[format]();
  }

  #record(piece: Piece): void {
    let record: unknown;
    try {
      record = JSON.parse(piece.text);
    } catch (cause) {
      throw importError(
        piece.where,
        `it is not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`,
        cause,
      );
    }
    if (this.#splitter.isArray === false && Array.isArray(record)) {
      throw importError(piece.where, "an array where a conversation or message object should be");
    }
    this.#records++;
    if (!this.#reader) {
      const format = detectFormat(record);
      if (!format) {
        throw importError(
          piece.where,
          `its shape is none of the known formats (${IMPORT_FORMATS.join(", ")}); its keys are ${keysOf(record)}`,
        );
      }
      this.#use(format);
    }
    for (const conv of this.#reader!.add(record, piece.where)) this.#build(conv);
  }

  #build(conv: RawConversation | BuiltChat): void {
    const { chat, report } =
      "built" in conv
        ? {
            chat:
              this.#options.model === undefined
                ? conv.chat
                : { ...conv.chat, chat: { ...conv.chat.chat, model: this.#options.model } },
            report: conv.report,
          }
        : buildChat(conv, { model: this.#model(conv.sourceModel), now: this.#options.now });
    checkTexts(chat, report);
    this.#out.chats.push(chat);
    this.#out.reports.push(report);
  }

  #model(source: string | undefined): string {
    if (this.#options.model !== undefined) return this.#options.model;
    if (source !== undefined) {
      try {
        getModelProfile(source);
        return source;
      } catch {
        // A model ctxloom does not know: the default counts its tokens.
      }
    }
    return "gpt-4o";
  }
}

/**
 * IMPORT_FAILED unless every message is one a chat accepts (the rules of `chats.import`) and
 * no text of the chat (a message's field, a tool call's, the title, the system prompt) holds
 * a lone surrogate: a file ctxloom would refuse halfway through the import is refused here, whole.
 */
function checkTexts(chat: ChatExport, report: ConversationReport): void {
  for (const m of chat.messages) {
    const lone = loneIn(m, "");
    const problem = lone
      ? `its ${lone} holds a lone surrogate (half of a UTF-16 pair), which no provider accepts`
      : storedMessageProblem(m, { tokensOptional: true, fresh: true });
    if (problem === null) continue;
    const key = Object.keys(report.ids).find((k) => report.ids[k] === m.id) ?? String(m.id);
    throw importError(report.where, `message ${JSON.stringify(key)}: ${problem.replace(/\.$/, "")}`);
  }
  const lone = loneIn({ title: chat.chat.title, "system prompt": chat.chat.system }, "");
  if (lone) throw importError(report.where, `its ${lone} holds a lone surrogate (half of a UTF-16 pair)`);
}

function keysOf(record: unknown): string {
  const r = asRecord(record);
  if (!r) return `none (it is ${describe(record)})`;
  const keys = Object.keys(r)
    .slice(0, 8)
    .map((k) => JSON.stringify(k));
  return keys.length ? keys.join(", ") : "none";
}

/** Parses a whole export held in memory (still one conversation at a time). */
export function parseExport(data: string | Uint8Array, options?: ImportOptions): ParsedImport {
  if (typeof data !== "string" && !(data instanceof Uint8Array)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `parseExport takes the file's text or bytes; got ${describe(data)}. For a stream use parseExportStream.`,
    );
  }
  const parser = new ImportParser(options);
  parser.feed(typeof data === "string" ? data : new TextDecoder().decode(data));
  return parser.finish();
}

/**
 * Parses an export read as chunks (a file stream, a fetch body): only one conversation's
 * text is held whole at a time. `onProgress` hears bytes read (characters, for string
 * chunks) after each chunk.
 */
export async function parseExportStream(
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  options?: StreamOptions,
): Promise<ParsedImport> {
  const iterable =
    source !== null && typeof source === "object" && (Symbol.asyncIterator in source || Symbol.iterator in source);
  if (!iterable) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `parseExportStream takes an iterable of string or Uint8Array chunks (a file or fetch stream); got ` +
        `${describe(source)}. For text in memory use parseExport.`,
    );
  }
  const parser = new ImportParser(options);
  const decoder = new TextDecoder();
  let bytesRead = 0;
  for await (const chunk of source) {
    if (typeof chunk === "string") {
      bytesRead += chunk.length;
      parser.feed(chunk);
    } else if (chunk instanceof Uint8Array) {
      bytesRead += chunk.byteLength;
      parser.feed(decoder.decode(chunk, { stream: true }));
    } else {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `A stream to import yields strings or Uint8Arrays; got ${describe(chunk)}.`,
      );
    }
    options?.onProgress?.({ bytesRead, totalBytes: options.totalBytes, conversations: parser.conversations });
  }
  parser.feed(decoder.decode());
  return parser.finish();
}
