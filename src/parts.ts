// Rich content of a message: the parts a content list may hold, their validation and text.
// Part of the base room (with message.ts): it imports only errors.
import { CtxloomError, closest, describe } from "./errors.js";
import {
  checkCompactionPart,
  checkReasoningPart,
  checkRedactedReasoningPart,
  type CompactionPart,
  type ReasoningPart,
  type RedactedReasoningPart,
} from "./part-items.js";

export type { CompactionPart, CompactionProvider, ReasoningPart, RedactedReasoningPart } from "./part-items.js";

/** A text part. */
export interface TextPart {
  /** Always "text". */
  type: "text";
  /** The text. */
  text: string;
}

/** An image: a URL (http or https), a data: URL, or base64 bytes (then `mediaType` is required). */
export interface ImagePart {
  /** Always "image". */
  type: "image";
  /** The image: an http(s) URL, a data: URL, or base64 bytes. */
  image: string;
  /** "image/png", "image/jpeg", ...; taken from a data: URL when left out. */
  mediaType?: string;
  /** OpenAI's detail level (and the token rule that follows from it); default "auto". */
  detail?: "low" | "high" | "auto";
  /** Size in pixels, for the token estimate (both or neither). */
  width?: number;
  /** Height in pixels (with `width`). */
  height?: number;
}

/** A file (a PDF, a text file...): a URL, a data: URL or base64 bytes, with its media type. */
export interface FilePart {
  /** Always "file". */
  type: "file";
  /** The file: an http(s) URL, a data: URL, or base64 bytes. */
  data: string;
  /** The file's media type ("application/pdf", "text/plain", ...). */
  mediaType: string;
  /** The file's name, sent where the provider takes one. */
  filename?: string;
}

/** A part of a message's content (names as the AI SDK's where it has one). */
export type ContentPart = TextPart | ImagePart | FilePart | ReasoningPart | RedactedReasoningPart | CompactionPart;

/**
 * The parts each role may carry: system messages are text only, a tool result text and images (a screenshot...);
 * reasoning and compactions are the assistant's.
 */
export const PART_TYPES_BY_ROLE: Readonly<Record<string, readonly ContentPart["type"][]>> = {
  system: ["text"],
  user: ["text", "image", "file"],
  assistant: ["text", "file", "reasoning", "redacted-reasoning", "compaction"],
  tool: ["text", "image"],
};

/** True for the parts that hold reasoning: what `reasoningTurns` leaves out of older turns. */
export const isReasoning = (p: ContentPart): boolean => p.type === "reasoning" || p.type === "redacted-reasoning";

const KEYS: Record<ContentPart["type"], readonly string[]> = {
  text: ["type", "text"],
  image: ["type", "image", "mediaType", "detail", "width", "height"],
  file: ["type", "data", "mediaType", "filename"],
  reasoning: ["type", "text", "signature", "item"],
  "redacted-reasoning": ["type", "data"],
  compaction: ["type", "provider", "data"],
};

/** The largest width or height an image part may state. */
export const MAX_IMAGE_SIDE = 1_000_000;

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const bad = (message: string): CtxloomError => new CtxloomError("INVALID_CONTENT", message);

/** A well-formed string (no lone surrogate), or INVALID_CONTENT naming `what`. */
export type TextCheck = (value: unknown, what: string) => string;

/**
 * Where the bytes of an image or file are: "url" (http or https), "data" (a data: URL with
 * base64 bytes) or "base64". @throws INVALID_CONTENT for anything else
 */
export function sourceKind(value: string, what: string): { kind: "url" | "data" | "base64"; mediaType?: string } {
  if (/^https?:\/\/[^\s]+$/i.test(value)) return { kind: "url" };
  if (value.startsWith("data:")) {
    const m = DATA_URL.exec(value);
    if (!m || !/;base64$/i.test(m[2]!) || !MEDIA_TYPE.test(m[1]!) || !BASE64.test(value.slice(m[0].length))) {
      throw bad(
        `${what} is a data: URL that is not "data:<media type>;base64,<bytes>"; encode the bytes as base64 with ` +
          `their media type.`,
      );
    }
    return { kind: "data", mediaType: m[1]!.toLowerCase() };
  }
  if (value.length > 0 && value.length % 4 === 0 && BASE64.test(value)) return { kind: "base64" };
  throw bad(
    `${what} must be an http(s) URL, a data: URL or base64 bytes; got ` +
      `${describe(value.length > 60 ? value.slice(0, 60) + "..." : value)}.`,
  );
}

function mediaTypeAt(value: unknown, what: string): string {
  if (typeof value !== "string" || !MEDIA_TYPE.test(value))
    throw bad(`${what} must be a media type such as "image/png" or "application/pdf"; got ${describe(value)}.`);
  return value.toLowerCase();
}

/**
 * A validated copy of a content list for a message of `role`: every part an object of a
 * known type with only its own keys, texts well-formed (`text` checks them), sources a URL,
 * a data: URL or base64 with a media type. @throws INVALID_CONTENT saying what to change
 */
export function checkParts(list: readonly unknown[], role: string, text: TextCheck): ContentPart[] {
  if (list.length === 0) throw bad("content must not be an empty list of parts; pass a string or at least one part.");
  const allowed = PART_TYPES_BY_ROLE[role] ?? [];
  return list.map((value, i) => {
    const at = `content[${i}]`;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw bad(`${at} must be a part object { type, ... }; got ${describe(value)}.`);
    }
    const p = value as Record<string, unknown>;
    const keys = KEYS[p.type as ContentPart["type"]];
    if (!keys || !Object.hasOwn(KEYS, p.type as string)) {
      throw bad(`${at}.type must be one of ${Object.keys(KEYS).join(", ")}; got ${describe(p.type)}.`);
    }
    for (const key of Object.keys(p)) {
      if (keys.includes(key)) continue;
      const hint = closest(key, keys);
      throw bad(
        `${at} (a ${p.type as string} part) has no key ${JSON.stringify(key)}; ` +
          (hint ? `did you mean ${JSON.stringify(hint)}?` : `its keys are ${keys.join(", ")}.`),
      );
    }
    const type = p.type as ContentPart["type"];
    if (!allowed.includes(type)) {
      throw bad(
        `${at} is a ${type} part in a ${role} message, which carries only ${allowed.join(", ")} parts; move it to a ` +
          `${type === "image" || type === "file" ? "user" : "assistant"} message or describe it in text.`,
      );
    }
    switch (type) {
      case "text": {
        const t = text(p.text, `${at}.text`);
        if (t.length === 0) throw bad(`${at}.text is empty; leave the part out.`);
        return { type, text: t };
      }
      case "image": {
        if (typeof p.image !== "string")
          throw bad(`${at}.image must be a string (a URL, a data: URL or base64); got ${describe(p.image)}.`);
        const source = sourceKind(text(p.image, `${at}.image`), `${at}.image`);
        const out: ImagePart = { type, image: p.image };
        if (p.mediaType !== undefined) {
          const mt = mediaTypeAt(p.mediaType, `${at}.mediaType`);
          if (!mt.startsWith("image/"))
            throw bad(
              `${at}.mediaType must be an image type ("image/png", "image/jpeg"...); got ${describe(p.mediaType)}.`,
            );
          if (source.mediaType !== undefined && source.mediaType !== mt) {
            throw bad(
              `${at}.mediaType ${describe(p.mediaType)} differs from its data: URL's ${describe(source.mediaType)}; ` +
                `leave mediaType out or make them agree.`,
            );
          }
          out.mediaType = mt;
        } else if (source.kind === "base64") {
          throw bad(
            `${at} holds base64 bytes without a mediaType; give mediaType (e.g. "image/png") or pass a data: URL.`,
          );
        } else if (source.mediaType !== undefined && !source.mediaType.startsWith("image/")) {
          throw bad(
            `${at}.image is a data: URL of ${describe(source.mediaType)}, not an image; send it as a file part.`,
          );
        }
        if (p.detail !== undefined) {
          if (p.detail !== "low" && p.detail !== "high" && p.detail !== "auto")
            throw bad(`${at}.detail must be "low", "high" or "auto"; got ${describe(p.detail)}.`);
          out.detail = p.detail;
        }
        if ((p.width === undefined) !== (p.height === undefined))
          throw bad(
            `${at} gives ${p.width === undefined ? "height" : "width"} alone; give both width and height, or neither.`,
          );
        if (p.width !== undefined) {
          for (const side of ["width", "height"] as const) {
            const v = p[side];
            if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > MAX_IMAGE_SIDE) {
              throw bad(
                `${at}.${side} must be a whole number of pixels from 1 to ${MAX_IMAGE_SIDE}; got ${describe(v)}.`,
              );
            }
          }
          out.width = p.width as number;
          out.height = p.height as number;
        }
        return out;
      }
      case "file": {
        if (typeof p.data !== "string")
          throw bad(`${at}.data must be a string (a URL, a data: URL or base64); got ${describe(p.data)}.`);
        const source = sourceKind(text(p.data, `${at}.data`), `${at}.data`);
        const mt = mediaTypeAt(p.mediaType, `${at}.mediaType`);
        if (source.mediaType !== undefined && source.mediaType !== mt) {
          throw bad(
            `${at}.mediaType ${describe(p.mediaType)} differs from its data: URL's ${describe(source.mediaType)}; ` +
              `make them agree.`,
          );
        }
        const out: FilePart = { type, data: p.data, mediaType: mt };
        if (p.filename !== undefined) {
          if (typeof p.filename !== "string" || p.filename.length === 0)
            throw bad(`${at}.filename must be a non-empty string when given; got ${describe(p.filename)}.`);
          out.filename = text(p.filename, `${at}.filename`);
        }
        return out;
      }
      case "reasoning":
        return checkReasoningPart(p, at, text);
      case "redacted-reasoning":
        return checkRedactedReasoningPart(p, at, text);
      case "compaction":
        return checkCompactionPart(p, at, text);
    }
  });
}

/** The text of a content list: its text parts joined with "\n" ("" when it has none). */
export function partsText(parts: readonly ContentPart[]): string {
  let out: string | undefined;
  for (const p of parts) if (p.type === "text") out = out === undefined ? p.text : `${out}\n${p.text}`;
  return out ?? "";
}

/**
 * Parts whose text is `text`: the parts that are not text in their order, and one text part
 * holding `text` where the first text part was (none when `text` is empty). What a message
 * keeps when its text is cut (a tool result truncated at append).
 */
export function withText(parts: readonly ContentPart[], text: string): ContentPart[] {
  const out: ContentPart[] = [];
  let placed = text.length === 0;
  for (const p of parts) {
    if (p.type !== "text") out.push(p);
    else if (!placed) {
      out.push({ type: "text", text });
      placed = true;
    }
  }
  if (!placed) out.unshift({ type: "text", text });
  return out;
}

/** The parts but compactions, which go to their provider only: what a UI, the AI SDK or LangChain gets. */
export function withoutCompactions(parts: readonly ContentPart[]): Exclude<ContentPart, CompactionPart>[] {
  return parts.filter((p): p is Exclude<ContentPart, CompactionPart> => p.type !== "compaction");
}

/** True when a content list holds a part other than text (then a message keeps its parts). */
export function hasRichPart(parts: readonly ContentPart[]): boolean {
  return parts.some((p) => p.type !== "text");
}

/** A copy of parts (each part its own object), frozen when `freeze`. */
export function copyParts(parts: readonly ContentPart[], freeze = false): ContentPart[] {
  const out = parts.map((p) => (freeze ? Object.freeze({ ...p }) : { ...p }));
  return freeze ? (Object.freeze(out) as ContentPart[]) : out;
}
