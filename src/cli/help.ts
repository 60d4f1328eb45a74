// Help texts of the `ctxloom` command.
import { IMPORT_FORMATS } from "../import/index.js";

export const GLOBAL_OPTIONS = `Options of every command:
  --db <path>     the chat database (default ./ctxloom.db)
  --user <id>     whose chats (default local)
  --json          print JSON instead of text
  -h, --help      this help`;

/** What each option's value is, for the usage messages (--format's differs by command: FORMATS). */
export const VALUES: Record<string, string> = {
  db: "a database file's path",
  user: "a user id",
  model: "a model name (see ctxloom models)",
  "context-window": "a number of tokens (a whole number from 16)",
  at: "a message id (a whole number from 0)",
  "keep-last": "a number of messages (a whole number from 0)",
  prompts: "a number of prompts (a whole number from 0)",
  recent: "a number of exchanges (a whole number from 0)",
  system: "a text",
  memory: "a text",
  input: "a text",
  scope: "branch, chat or user",
  engine: "wasm or js",
  "idle-for": "a duration: a whole number and d, h, m or s (90d)",
  "keep-newest": "a number of chats (a whole number from 1)",
  "batch-size": "a number of chats (a whole number from 1)",
};
export const FORMATS: Record<string, string> = {
  import: `auto or one of ${IMPORT_FORMATS.join(", ")}`,
  context: "openai or anthropic",
  export: "json or openai-jsonl",
};

/** What `--name` of `command` takes, for the usage messages. */
export const valueOf = (command: string, name: string): string =>
  name === "format" ? (FORMATS[command] ?? "a format") : (VALUES[name] ?? "a value");

/** Text a user typed, as a message shows it: bare when it is one plain word, else quoted. */
export const typed = (text: string): string => (/^[^\s"']+$/.test(text) ? text : JSON.stringify(text));

export const HELP: Record<string, string> = {
  "": `ctxloom: conversations kept as trees, and the context window a model should see.

Usage: ctxloom <command> [arguments] [options]

Commands:
  import <file...>    import chats exported from ChatGPT, Open WebUI, LibreChat, OpenAssistant, ShareGPT,
                      OpenAI JSONL, or by ctxloom export
  chats               list the chats
  tree <chat>         draw a chat's branches, the head marked
  show <chat>         the messages from the root to the head (or --at <id>)
  checkout <chat> <id>  move a chat's head to a message
  context <chat>      the context window built for a model, with the budget used
  stats <chat>        a chat's figures
  summarize <chat>    summarize all but the newest messages of the active branch (the originals stay)
  recall <chat> <query>  the earlier messages most like a query (semantic recall)
  export <chat>       a chat as JSON (--format json) or OpenAI JSONL (--format openai-jsonl)
  models [filter]     the models ctxloom knows
  erase --user <id>   erase a user: every chat, message and vector of theirs
  prune               remove chats idle past --idle-for, or past --keep-newest per user
  demo                a walk through the operations on an example chat, in a temporary SQLite file

A <chat> is a chat's id, a unique start of one, or its exact title.
Run ctxloom <command> --help for a command's options.
  -v, --version   the version

${GLOBAL_OPTIONS}

Exit codes: 0 done, 1 bad input (a file, a chat, a model), 2 bad usage.`,
  import: `Usage: ctxloom import <file...> [--format <format>]

Imports every conversation of the files, every branch kept, the head on the export's
current message. All files are read and checked first: a broken file imports nothing.
Each chat remembers the conversation it came from (the export's id for it, or a fingerprint
of its messages): importing it again adds its new messages to that chat (the head moves to
the export's current message) or, with nothing new, leaves the chat as it is.
  --format <f>    ${["auto", ...IMPORT_FORMATS].join(", ")} (default auto: detected)
  --model <m>     the chats' model (default: the export's when known, else gpt-4o)
  --copy          import conversations imported before as new chats all the same`,
  chats: "Usage: ctxloom chats\n\nLists the chats, the most recently updated first.",
  tree: "Usage: ctxloom tree <chat>\n\nDraws every branch; * marks the active branch, <- head the head.",
  show:
    "Usage: ctxloom show <chat> [--at <id>]\n\nPrints the messages from the root to the head, or to message " +
    "<id>.\n  --at <id>       the message to end at",
  checkout: "Usage: ctxloom checkout <chat> <id>\n\nMoves the chat's head to message <id> (switches branch).",
  context: `Usage: ctxloom context <chat> [--model <m>] [--system <text>] [--input <text>] [--format openai|anthropic]

Builds the context window from the head for the model, and shows each budget slice used
(the conversation's bar against the room the other parts leave it).
  --model <m>     the model whose window sets the budget (default: the chat's)
  --context-window <n>  the model's window in tokens, for a model ctxloom does not know or
                  one served with a smaller window (a local server's context length)
  --system <text> a system prompt instead of the chat's
  --memory <text> memory text, sent as a second system message
  --input <text>  the user's new message
  --format <f>    openai (default) or anthropic`,
  recall: `Usage: ctxloom recall <chat> <query...> [--scope branch|chat|user] [--prompts <n>] [--recent <n>]

Prints the exchanges semantic recall brings back for the query, with their scores. Messages
are embedded with the built-in hashing embedder on first use and kept in the database.
  --scope <s>     branch (the path to the head), chat (default: every branch) or user (all chats)
  --prompts <n>   user prompts most like the query (default 2)
  --recent <n>    newest exchanges added (default 0 here)`,
  stats: "Usage: ctxloom stats <chat>\n\nPrints the chat's figures (messages, branch, tokens of the last context).",
  summarize: `Usage: ctxloom summarize <chat> [--keep-last <n>] [--model <m>]

Adds a summary of the active branch but its newest messages (extractive: no model is
called). Contexts then send the summary in place of what it covers; show, tree and export
still have every original message.
  --keep-last <n> messages left as they are (default 20)
  --model <m>     the model whose window sets the summary's budget (default: the chat's)
  --context-window <n>  that model's window in tokens`,
  export:
    "Usage: ctxloom export <chat> [--format json|openai-jsonl]\n\njson (default): the portable chat format, every " +
    "branch.\nopenai-jsonl: one line { messages } per branch, root to leaf.",
  models: "Usage: ctxloom models [filter]\n\nLists the known models whose name contains <filter>.",
  erase: `Usage: ctxloom erase --user <id>

Erases the user: every chat with its messages, summaries, vectors and append keys, in one
transaction; then the database file is rebuilt and its log emptied, so that no byte of them
is left on disk (what a backup or a copy holds is not the command's to erase).
  --user <id>     the user to erase (required)`,
  prune: `Usage: ctxloom prune [--idle-for <duration>] [--keep-newest <n>] [--vacuum]

Removes the chats not written for --idle-for (90d, 12h, 30m, 45s), and those past each
user's newest --keep-newest, in batches (each one transaction), and lists what went.
  --idle-for <d>     chats idle this long go
  --keep-newest <n>  per user, only the newest n chats stay
  --batch-size <n>   chats per batch (default 25)
  --vacuum           rebuild the file after, so that no byte of what went stays in it`,
  demo: `Usage: ctxloom demo [--engine wasm|js] [--json]

Walks through the operations on an example chat written here (no network, no key), on a
fresh SQLite file in a temporary folder (in memory when better-sqlite3 is not installed).
  --engine <e>    wasm (default) or js
  --json          print one JSON object of the figures the demo shows instead of the walk`,
};
