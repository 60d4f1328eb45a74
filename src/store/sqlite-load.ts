// Loading a long chat's messages with few values crossing the driver: the numbers and the
// rare fields of each chunk of ids come as one row of JSON arrays (parsed at once), and the
// texts as single values (no array per row). The driver's cost is per row and per value:
// this halves what a load of 100,000 messages spends outside SQLite and the text itself.
import { PRIORITIES, ROLES, type Message } from "../message.js";
import { addExtras, unknownCode, type Extras, type Statements } from "./sqlite-statements.js";

/** Ids per chunk of numbers. */
const CHUNK = 1024;

type Chunk = [ids: number[], parents: (number | null)[], codes: number[], tokens: number[], created: number[], extras: (Extras | null)[]];

/**
 * Messages `since` to `count - 1` of chat `key` (call it inside a read transaction), or
 * undefined when the chat is short, or its rows are not exactly those ids, or a chunk cannot
 * be read this way (a value JSON cannot hold): the row-per-message read then decides and
 * reports what is wrong. Throws STORE_CORRUPT for an unknown role, priority or kind code.
 */
export function loadChunked(st: Statements, key: number, since: number, count: number, path: string, chatId: string): Message[] | undefined {
  const n = count - since;
  if (n < CHUNK) return undefined; // a few rows cost little either way
  if (st.messageFrom.get(key, count) !== undefined) return undefined; // rows beyond the count
  const texts = st.contents.all(key, since, count) as string[];
  if (texts.length !== n) return undefined;
  const out = new Array<Message>(n);
  for (let lo = since; lo < count; lo += CHUNK) {
    const hi = Math.min(count, lo + CHUNK);
    let chunk: Chunk;
    try {
      chunk = (st.messageChunk.get(key, lo, hi) as string[]).map((json) => JSON.parse(json) as unknown[]) as Chunk;
    } catch {
      return undefined; // e.g. a BLOB where a number belongs: JSON cannot hold it
    }
    const [ids, parents, codes, tokens, created, extras] = chunk;
    if (ids.length !== hi - lo) return undefined;
    for (let i = 0; i < ids.length; i++) {
      const id = lo + i;
      if (ids[i] !== id) return undefined; // the aggregate saw the rows in another order, or not these
      const c = codes[i]!;
      if (c < 0) throw unknownCode(path, chatId, id);
      const m: Message = {
        id, parentId: parents[i]!, role: ROLES[c & 3]!, content: texts[id - since]!, priority: PRIORITIES[(c >> 2) & 3]!,
        tokens: tokens[i]!, createdAt: created[i]!, kind: c >> 4 === 1 ? "summary" : "message",
      };
      const x = extras[i];
      if (x !== null) addExtras(m, x!, path, chatId);
      out[id - since] = m;
    }
  }
  return out;
}
