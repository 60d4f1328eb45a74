// The chat app's server side, as a fetch handler (Request in, Response out): the page, the
// useChat route, the list of chats, one chat's messages, and switching branches.
import { streamText, type LanguageModel } from "ai";
import { CtxloomError, type Loom } from "ctxloom";
import { chatTurn, switchBranch, toUIMessages } from "ctxloom/ai-sdk";

export interface ChatAppOptions {
  loom: Loom;
  model: LanguageModel;
  /** The page and its script (the bundled client). */
  page: { html: string; script: string };
  /** Who is asking: a real app reads its session here. */
  userOf?: (request: Request) => string;
}

export function chatApp({ loom, model, page, userOf = () => "demo" }: ChatAppOptions): (request: Request) => Promise<Response> {
  /** The useChat route: what the README and docs/sdks.md show. */
  async function chat(request: Request): Promise<Response> {
    const body = await request.json();
    const title = String(body?.messages?.[0]?.parts?.find((p: { type: string }) => p.type === "text")?.text ?? "New chat").slice(0, 60);
    const turn = await chatTurn(loom.user(userOf(request)), body, { create: { model: "gpt-4o-mini", title, system: "You are a concise assistant." } });
    const result = streamText({ model, ...turn.context });
    return result.toUIMessageStreamResponse(turn.stream);
  }

  return async (request) => {
    const url = new URL(request.url);
    const path = url.pathname;
    try {
      if (request.method === "GET" && path === "/") return new Response(page.html, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (request.method === "GET" && path === "/app.js") return new Response(page.script, { headers: { "content-type": "text/javascript" } });
      if (request.method === "POST" && path === "/api/chat") return await chat(request);
      const chats = loom.user(userOf(request));
      if (request.method === "GET" && path === "/api/chats") {
        const cursor = url.searchParams.get("cursor");
        return Response.json(await chats.page({ limit: 20, ...(cursor ? { after: cursor } : {}) }));
      }
      const one = /^\/api\/chats\/([^/]+)(\/branch)?$/.exec(path);
      if (one) {
        const opened = await chats.open(decodeURIComponent(one[1]!));
        if (request.method === "GET" && !one[2]) return Response.json({ id: opened.id, title: opened.title, messages: toUIMessages(opened) });
        if (request.method === "POST" && one[2]) {
          const { messageId } = (await request.json()) as { messageId: number };
          return Response.json({ messages: await switchBranch(opened, messageId) });
        }
      }
      return Response.json({ error: "not found" }, { status: 404 });
    } catch (error) {
      if (!(error instanceof CtxloomError)) throw error;
      const status = error.code === "UNKNOWN_CHAT" || error.code === "UNKNOWN_MESSAGE" ? 404 : error.code.startsWith("STORE") ? 503 : 400;
      return Response.json({ error: error.message, code: error.code }, { status });
    }
  };
}
