/** A named statement: pg prepares it once per connection and reuses it. */
export interface Statement {
  name: string;
  text: string;
}

export interface Statements {
  /** The NOTIFY channel appends announce themselves on. */
  channel: string;
  createChat: Statement;
  importMessages: Statement;
  listChats: Statement;
  loadChat: Statement;
  loadMessages: Statement;
  append: Statement;
  appended: Statement;
  size: Statement;
  setHead: Statement;
  deleteChat: Statement;
  putEmbeddings: Statement;
  loadEmbeddings: Statement;
  clearEmbeddings: Statement;
}

const CHAT_COLUMNS = "id, user_id, title, model, system, options, head, message_count, created_at, updated_at";
const MESSAGE_COLUMNS =
  "id, parent, role, content, priority, tokens, name, tool_calls, tool_call_id, kind, covers_first, covers_last, parts, created_at";

/** Every statement of the store, parameterized, for tables named with prefix `p`. */
export function postgresStatements(p: string): Statements {
  const channel = `${p}changes`;
  const s = (name: string, text: string): Statement => ({ name: `${p}${name}`, text });
  return {
    channel,
    createChat: s("create_chat", `INSERT INTO ${p}chats (${CHAT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`),
    // A whole chat's messages in one statement, from arrays (chats.import).
    importMessages: s(
      "import_messages",
      `INSERT INTO ${p}messages (user_id, chat_id, ${MESSAGE_COLUMNS})
       SELECT $1, $2, * FROM unnest($3::integer[], $4::integer[], $5::text[], $6::text[], $7::text[], $8::integer[], $9::text[],
         $10::json[], $11::text[], $12::text[], $13::integer[], $14::integer[], $15::json[], $16::double precision[])`,
    ),
    listChats: s("list_chats", `SELECT ${CHAT_COLUMNS} FROM ${p}chats WHERE user_id = $1 ORDER BY updated_at DESC, created_at DESC`),
    loadChat: s("load_chat", `SELECT ${CHAT_COLUMNS} FROM ${p}chats WHERE id = $1 AND user_id = $2`),
    loadMessages: s("load_messages", `SELECT ${MESSAGE_COLUMNS} FROM ${p}messages WHERE user_id = $3 AND chat_id = $1 AND id >= $2 ORDER BY id`),
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
       INSERT INTO ${p}messages (user_id, chat_id, ${MESSAGE_COLUMNS}, key)
       SELECT bump.user_id, bump.id, $5, $6, $7, $8, $9, $10, $11, $12::json, $13, $14, $15, $16, $17::json, $18, $19 FROM bump
       RETURNING (SELECT pg_notify('${channel}', json_build_object('u', user_id, 'c', id, 'n', message_count)::text) FROM bump)`,
    ),
    // Why an append wrote nothing: the chat's size, and the message stored under the key ($3), if any.
    appended: s(
      "appended",
      `SELECT c.message_count, ${MESSAGE_COLUMNS.split(", ").map((column) => `m.${column}`).join(", ")}
       FROM ${p}chats c LEFT JOIN ${p}messages m ON m.user_id = c.user_id AND m.chat_id = c.id AND m.key = $3
       WHERE c.id = $1 AND c.user_id = $2`,
    ),
    size: s("size", `SELECT message_count FROM ${p}chats WHERE id = $1 AND user_id = $2`),
    setHead: s(
      "set_head",
      `UPDATE ${p}chats SET head = $3, updated_at = $4
       WHERE id = $1 AND user_id = $2 AND (NOT $5::boolean OR head IS NOT DISTINCT FROM $6::integer)`,
    ),
    deleteChat: s("delete_chat", `DELETE FROM ${p}chats WHERE id = $1 AND user_id = $2`),
    putEmbeddings: s(
      "put_embeddings",
      `INSERT INTO ${p}embeddings (user_id, chat_id, message_id, embedder, dimension, vector)
       SELECT c.user_id, c.id, r.message_id, $3, $4, r.vector
       FROM ${p}chats c, unnest($5::integer[], $6::bytea[]) AS r (message_id, vector)
       WHERE c.id = $1 AND c.user_id = $2
       ON CONFLICT (user_id, chat_id, embedder, dimension, message_id) DO UPDATE SET vector = EXCLUDED.vector`,
    ),
    loadEmbeddings: s(
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
