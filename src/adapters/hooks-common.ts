// What the ready-made summarizers and embedders share: the text a summarizer sends a model
// (the request's prompt as instructions, the messages after the summary they continue as one
// text), and the checks of an embedder's size options.
import { CtxloomError, checkInteger, describe } from "../errors.js";
import { MAX_DIMENSION } from "../recall/embedder.js";
import type { SummarizeRequest } from "../summary/run.js";

/**
 * The `dimensions` of an embedder's options (required) and whether to ask the model for
 * them (`requestDimensions`, default false). @throws INVALID_ARGUMENT
 */
export function embedderSize(
  o: { dimensions?: unknown; requestDimensions?: unknown },
  what: string,
): { dimensions: number; request: boolean } {
  if (o.dimensions === undefined)
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what} needs { dimensions }: the length of the model's vectors (1536 for text-embedding-3-small).`,
    );
  const dimensions = checkInteger(o.dimensions, `${what}.dimensions`, 1, MAX_DIMENSION);
  if (o.requestDimensions !== undefined && typeof o.requestDimensions !== "boolean") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${what}.requestDimensions must be true or false; got ${describe(o.requestDimensions)}.`,
    );
  }
  return { dimensions, request: o.requestDimensions === true };
}

const LABEL = { system: "System", user: "User", assistant: "Assistant", tool: "Tool" } as const;

/**
 * The messages of a summary request as a transcript: the previous summary first, then one
 * block per message, "Role: text"; an assistant's tool calls as `name(arguments)` lines, a
 * tool result under its call's name.
 */
export function summaryTranscript(request: Pick<SummarizeRequest, "messages" | "previousSummary">): string {
  const names = new Map<string, string>();
  const blocks: string[] = [];
  for (const m of request.messages) {
    const lines: string[] = [];
    if (m.role === "tool") {
      const name = m.name ?? (m.toolCallId === undefined ? undefined : names.get(m.toolCallId));
      lines.push(`${LABEL.tool}${name === undefined ? "" : ` (${name})`}: ${m.content}`);
    } else {
      const label = m.name === undefined ? LABEL[m.role] : `${LABEL[m.role]} (${m.name})`;
      if (m.content.length > 0 || !m.toolCalls?.length) lines.push(`${label}: ${m.content}`);
      for (const call of m.toolCalls ?? []) {
        names.set(call.id, call.function.name);
        lines.push(`${label} called ${call.function.name}(${call.function.arguments})`);
      }
    }
    blocks.push(lines.join("\n"));
  }
  const head = request.previousSummary === null ? "" : `Previous summary:\n${request.previousSummary}\n\n`;
  return `${head}Messages to summarize:\n\n${blocks.join("\n\n")}`;
}
