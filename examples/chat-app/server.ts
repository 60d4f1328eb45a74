// `npm run example`: the chat app on http://127.0.0.1:3000 (PORT), its chats in a SQLite file
// (CHAT_DB, default in the temp folder), answered by the canned model unless AI_GATEWAY_API_KEY is set.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Loom } from "ctxloom";
import { sqliteStore } from "ctxloom/sqlite";
import { chatApp } from "./app.js";
import { appModel } from "./model.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const file = process.env.CHAT_DB ?? join(tmpdir(), "ctxloom-chat-app.db");

// The page's script: the AI SDK's chat client and the page, bundled for the browser.
const bundled = await build({ entryPoints: [join(here, "client/main.ts")], bundle: true, write: false, format: "esm", platform: "browser", target: "es2022", logLevel: "silent" });
const page = { html: readFileSync(join(here, "client/index.html"), "utf8"), script: bundled.outputFiles[0]!.text };

const loom = await Loom.open({ store: sqliteStore(file) });
const { model, name } = appModel();
const handle = chatApp({ loom, model, page });

/** Node's request as a fetch Request, the fetch Response streamed back (the answer arrives word by word). */
async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === "GET" || req.method === "HEAD" ? undefined : body });
  const response = await handle(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
}

const server = createServer((req, res) => {
  serve(req, res).catch((error: unknown) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("server error");
  });
});
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  const at = typeof address === "object" && address ? address.port : port;
  console.log(`chat app on http://127.0.0.1:${at} (model: ${name}; chats in ${file})`);
});

async function stop(): Promise<void> {
  server.close();
  await loom.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
