// Every statement of the PostgreSQL store, parameterized, for tables named with prefix `p`.
// They read and write the kit's rows (sql-rows.ts): chats in CHAT_WRITE's order and as a
// ChatRow, messages in MESSAGE_WRITE's order (role, priority and kind as codes, turned into
// the schema's words here) and as a MessageRow (the codes made back from the words).
import { PRIORITIES, ROLES } from "../message.js";

/** A named statement: pg prepares it once per connection and reuses it. Rows come as arrays where `rowMode` says so. */
export interface Statement {
  name: string;
  text: string;
  rowMode?: "array";
}

export type Statements = ReturnType<typeof postgresStatements>;

const words = (list: readonly string[]) => `(ARRAY[${list.map((w) => `'${w}'`).join(", ")}]::text[])`;
const [ROLE, PRIORITY, KIND] = [words(ROLES), words(PRIORITIES), words(["message", "summary"])];
/** The code of a word (its index in the list), or null for a word ctxloom never wrote. */
const codeOf = (list: string, column: string) => `(array_position(${list}, ${column}) - 1)`;
/** The codec's codes in one integer (role | priority << 2 | kind << 4), -1 when one is unknown. */
const CODES =
  `coalesce(${codeOf(ROLE, "role")} + (${codeOf(PRIORITY, "priority")} << 2) + ${codeOf(KIND, "kind")} ` + `* 16, -1)`;

/** The list's order (Store.listChats). */
const CHAT_ORDER = "updated_at DESC, created_at DESC, id DESC";
/** CHAT_WRITE's columns, in its order. */
const CHAT_WRITE = "user_id, id, title, model, system, options, head, created_at, updated_at, message_count";
/** A ChatRow (no key here: 0). */
const CHAT_READ = "0, user_id, id, title, model, system, options::text, head, created_at, updated_at, message_count";
/** MESSAGE_WRITE's columns, in its order. */
const MESSAGE_WRITE =
  "id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, covers_first, covers_last, " +
  "created_at, parts";
/** A MessageRow, of the messages table aliased `m`. */
const MESSAGE_READ = [
  "m.id",
  "m.parent",
  CODES.replace(/\b(role|priority|kind)\b/g, "m.$1"),
  "m.tokens",
  "m.created_at",
  "m.content",
  "m.name",
  "m.tool_calls::text",
  "m.tool_call_id",
  "m.covers_first",
  "m.covers_last",
  "m.parts::text",
].join(", ");
/** MESSAGE_WRITE's values from the parameters $n, $n+1, ... (codes made words, JSON cast). */
const messageParams = (n: number) => {
  const $ = (i: number) => `$${n + i}`;
  return [
    $(0),
    $(1),
    `${ROLE}[${$(2)}::integer + 1]`,
    $(3),
    `${PRIORITY}[${$(4)}::integer + 1]`,
    $(5),
    $(6),
    `${$(7)}::json`,
    $(8),
    `${KIND}[${$(9)}::integer + 1]`,
    $(10),
    $(11),
    $(12),
    `${$(13)}::json`,
  ].join(", ");
};

/** Every statement of the store, for tables named with prefix `p`. */
export function postgresStatements(p: string) {
  const channel = `${p}changes`;
  const s = (name: string, text: string): Statement => ({ name: `${p}${name}`, text });
  const rows = (name: string, text: string): Statement => ({ name: `${p}${name}`, text, rowMode: "array" });
  return {
    /** The NOTIFY channel appends announce themselves on. */
    channel,
    createChat: s(
      "create_chat",
      `INSERT INTO ${p}chats (${CHAT_WRITE}) VALUES ($1, $2, $3, $4, $5, $6::json, $7, $8, $9, $10)`,
    ),
    // A whole chat's messages in one statement, from one array per column (chats.import).
    importMessages: s(
      "import_messages",
      `INSERT INTO ${p}messages (user_id, chat_id, ${MESSAGE_WRITE})
       SELECT $1, $2, ${messageParams(0).replace(/\$(\d+)/g, (_, i: string) => `r.c${i}`)}
       FROM unnest($3::integer[], $4::integer[], $5::integer[], $6::text[], $7::integer[], $8::integer[], $9::text[], $10::text[], $11::text[],
         $12::integer[], $13::integer[], $14::integer[], $15::double precision[], $16::text[])
         AS r (c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13)`,
    ),
    listChats: rows("list_chats", `SELECT ${CHAT_READ} FROM ${p}chats WHERE user_id = $1 ORDER BY ${CHAT_ORDER}`),
    // A page of the list (chats.page({ limit, after })), on the index of (user_id, updated_at).
    listChatsFirst: rows(
      "list_chats_first",
      `SELECT ${CHAT_READ} FROM ${p}chats WHERE user_id = $1 ORDER BY ${CHAT_ORDER} LIMIT $2`,
    ),
    listChatsAfter: rows(
      "list_chats_after",
      `SELECT ${CHAT_READ} FROM ${p}chats WHERE user_id = $1 AND (updated_at, created_at, id) < ($2, $3, $4) ORDER ` +
        `BY ${CHAT_ORDER} LIMIT $5`,
    ),
    loadChat: rows("load_chat", `SELECT ${CHAT_READ} FROM ${p}chats WHERE id = $1 AND user_id = $2`),
    loadMessages: rows(
      "load_messages",
      `SELECT ${MESSAGE_READ} FROM ${p}messages m WHERE m.user_id = $3 AND m.chat_id = $1 AND m.id >= $2 ORDER BY m.id`,
    ),
    // The conditional append in one statement: the chat's count moves from the message's id
    // to the next (the row lock serializes writers; a loser matches no row), the message is
    // inserted with its key (a key the chat holds already fails the unique index: nothing is
    // written), and the change is announced on commit.
    append: s(
      "append",
      `WITH bump AS (
         UPDATE ${p}chats SET message_count = message_count + 1, head = $3, updated_at = $4
         WHERE id = $1 AND user_id = $2 AND message_count = $5
         RETURNING id, user_id, message_count)
       INSERT INTO ${p}messages (user_id, chat_id, ${MESSAGE_WRITE}, key)
       SELECT bump.user_id, bump.id, ${messageParams(5)}, $19 FROM bump
       RETURNING (SELECT pg_notify('${channel}', json_build_object('u', user_id, 'c', id, 'n', message_count)::text) FROM bump)`,
    ),
    // Why an append wrote nothing: the chat's size, then the message stored under the key ($3) as a MessageRow (all
    // null when none).
    appended: rows(
      "appended",
      `SELECT c.message_count, ${MESSAGE_READ}
       FROM ${p}chats c LEFT JOIN ${p}messages m ON m.user_id = c.user_id AND m.chat_id = c.id AND m.key = $3
       WHERE c.id = $1 AND c.user_id = $2`,
    ),
    size: s("size", `SELECT message_count FROM ${p}chats WHERE id = $1 AND user_id = $2`),
    // A head among the chat's messages ($3 < message_count), compared-and-set when $5.
    setHead: s(
      "set_head",
      `UPDATE ${p}chats SET head = $3, updated_at = $4
       WHERE id = $1 AND user_id = $2 AND ($3::integer IS NULL OR $3::integer < message_count)
         AND (NOT $5::boolean OR head IS NOT DISTINCT FROM $6::integer)`,
    ),
    // The chat goes with its own memory (its messages and embeddings by the foreign keys).
    deleteChat: s(
      "delete_chat",
      `WITH memory AS (DELETE FROM ${p}memory WHERE user_id = $2 AND scope = $1), heads AS (DELETE FROM ${p}memory_heads WHERE user_id = $2 AND scope = $1)
       DELETE FROM ${p}chats WHERE id = $1 AND user_id = $2`,
    ),
    // chat.redact in one statement: the messages ($3 ids, $4 texts, $5 tool calls or null, $7
    // token counts) get their new texts and counts, lose their parts and embeddings, only when every id ($6: the
    // greatest) is the chat's; answers the chat's size (null: no such chat). UPDATE writes new row versions: the old
    // ones stay in the table's files until VACUUM (the operator's) reclaims them.
    redact: rows(
      "redact",
      `WITH c AS (SELECT message_count FROM ${p}chats WHERE id = $1 AND user_id = $2 FOR UPDATE),
       r AS (SELECT * FROM unnest($3::integer[], $4::text[], $5::text[], $7::integer[]) AS r (id, content, tool_calls, tokens) WHERE $6 < (SELECT message_count FROM c)),
       changed AS (
         UPDATE ${p}messages m SET content = r.content, parts = NULL, tool_calls = coalesce(r.tool_calls::json, m.tool_calls), tokens = r.tokens
         FROM r WHERE m.chat_id = $1 AND m.user_id = $2 AND m.id = r.id RETURNING m.id),
       dropped AS (DELETE FROM ${p}embeddings e USING r WHERE e.chat_id = $1 AND e.user_id = $2 AND e.message_id = r.id)
       SELECT (SELECT message_count FROM c), (SELECT count(*) FROM changed)`,
    ),
    // All the rows or none: only when every message id ($7: the greatest) is the chat's.
    putEmbeddings: s(
      "put_embeddings",
      `INSERT INTO ${p}embeddings (user_id, chat_id, message_id, embedder, dimension, vector)
       SELECT c.user_id, c.id, r.message_id, $3, $4, r.vector
       FROM ${p}chats c, unnest($5::integer[], $6::bytea[]) AS r (message_id, vector)
       WHERE c.id = $1 AND c.user_id = $2 AND c.message_count > $7
       ON CONFLICT (user_id, chat_id, embedder, dimension, message_id) DO UPDATE SET vector = EXCLUDED.vector`,
    ),
    loadEmbeddings: rows(
      "load_embeddings",
      `SELECT message_id, vector FROM ${p}embeddings
       WHERE chat_id = $1 AND user_id = $2 AND embedder = $3 AND dimension = $4 ORDER BY message_id`,
    ),
    clearEmbeddings: s(
      "clear_embeddings",
      `DELETE FROM ${p}embeddings WHERE user_id = $1 AND ($2::text IS NULL OR chat_id = $2)`,
    ),
  };
}
