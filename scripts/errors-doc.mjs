#!/usr/bin/env node
// Writes docs/errors.md from src/errors.ts: every code of the `ErrorCode` union with its meaning,
// as the list above the union says it (one "- CODE: meaning" entry per code). The list is the one
// place a code's meaning is written; this page is generated from it, and
// test/docs/errors-doc.test.ts fails when the page is stale or a code has no entry.
//
//   node scripts/errors-doc.mjs           writes docs/errors.md
//   node scripts/errors-doc.mjs --check   exits 1 when docs/errors.md is not what it would write

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const PAGE = join(root, "docs/errors.md");

/** The codes of the `ErrorCode` union, in the order the union lists them. */
export function errorCodes(source) {
  const union = /export type ErrorCode =([^;]*);/.exec(source);
  if (!union) throw new Error("src/errors.ts has no `export type ErrorCode = ...;`");
  return [...union[1].matchAll(/"([A-Z_]+)"/g)].map((m) => m[1]);
}

/** Each code's meaning, from the "- CODE: meaning" entries of the comment above the union. */
export function meanings(source) {
  const at = source.indexOf("export type ErrorCode");
  const comment = source.slice(source.lastIndexOf("/**", at), at);
  const entries = new Map();
  let current;
  for (const raw of comment.split("\n")) {
    const line = raw.replace(/^\s*\*\/?\s?/, "").replace(/^\/\*\*\s*/, "");
    const entry = /^- ([A-Z_]+): (.*)$/.exec(line);
    if (entry) {
      current = entry[1];
      if (entries.has(current)) throw new Error(`src/errors.ts describes ${current} twice`);
      entries.set(current, entry[2].trim());
    } else if (current !== undefined && /^\s+\S/.test(line)) {
      entries.set(current, `${entries.get(current)} ${line.trim()}`);
    } else {
      current = undefined;
    }
  }
  return entries;
}

const INTRO = `# Errors

<!-- Generated from src/errors.ts by \`node scripts/errors-doc.mjs\`: edit the list there, then run it. -->

Every error ctxloom throws is a \`CtxloomError\` with a stable \`code\` and a message that says what
to do; a rejected call changes nothing. Code may branch on the code (it never changes meaning),
never on the message:

\`\`\`ts
import { CtxloomError, Loom } from "ctxloom";

const loom = await Loom.open();
const chats = loom.user("alice");
await chats.create({ id: "trip" });
try {
  await chats.create({ id: "trip" });
} catch (error) {
  if (!(error instanceof CtxloomError)) throw error;
  console.log(error.code);
  console.log(error.message);
  console.log((await chats.list()).length); // the rejected call changed nothing
}
await loom.close();
\`\`\`

prints

\`\`\`text
CHAT_EXISTS
User "alice" has a chat "trip" already; open it with chats.open(id), or create the chat under another id.
1
\`\`\`

Every code, in the order of \`ErrorCode\`:
`;

const OUTRO = `
The memory codes (\`MEMORY_CONFLICT\` to \`SCHEMA_MISMATCH\`) come with the calls that throw them in
[memory.md](memory.md#errors).
`;

/** The page, from the text of src/errors.ts. Throws when a code has no entry or an entry names no code. */
export function render(source = readFileSync(join(root, "src/errors.ts"), "utf8")) {
  const codes = errorCodes(source);
  const meaning = meanings(source);
  const missing = codes.filter((c) => !meaning.has(c));
  if (missing.length > 0) throw new Error(`src/errors.ts: no "- CODE: meaning" entry for ${missing.join(", ")}`);
  const unknown = [...meaning.keys()].filter((c) => !codes.includes(c));
  if (unknown.length > 0) throw new Error(`src/errors.ts: ${unknown.join(", ")} described but not in ErrorCode`);
  const cell = (text) => text.replace(/\|/g, "\\|");
  const rows = codes.map((c) => `| \`${c}\` | ${cell(meaning.get(c))} |`);
  return `${INTRO}\n| code | meaning |\n|---|---|\n${rows.join("\n")}\n${OUTRO}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = render();
  if (process.argv.includes("--check")) {
    if (readFileSync(PAGE, "utf8") !== page) {
      console.error("docs/errors.md is stale: run node scripts/errors-doc.mjs");
      process.exit(1);
    }
  } else {
    writeFileSync(PAGE, page);
    console.log(
      `docs/errors.md: ${errorCodes(readFileSync(join(root, "src/errors.ts"), "utf8")).length} codes from src/errors.ts`,
    );
  }
}
