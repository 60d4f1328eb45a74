// A LangChain v1 agent (`createAgent`) kept in a chat: a middleware that appends the agent's
// messages to the chat as they come and sends the model the context the chat builds, with an
// agent's defaults (older tool results cleared, the read tool offered, the tools counted).
// The middleware is made as `langchain`'s createMiddleware makes one (the same fields and
// brand), so that this entry loads `@langchain/core` only.
import { SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import type { Chat } from "../chat/chat.js";
import { BUILD_KEYS, type BuildOptions } from "../context/types.js";
import { checkOptions } from "../errors.js";
import type { ToolSetLike } from "../tokens/tool-set.js";
import { agentToolResults, checkChat, closeCalls, readToolOf } from "./agent.js";
import { fromOptions, type FromOptions } from "./common.js";
import { fromLangChainMessages, toLangChainMessages } from "./langchain.js";
import {
  READ_TOOL_DESCRIPTION,
  READ_TOOL_NAME,
  checkReadToolOptions,
  readRunner,
  readToolSchema,
  type ReadToolOptions,
} from "./read-tool.js";

/**
 * Options of `ctxloomMiddleware`: the build's (but its format, input and tools: the agent's are counted), the read
 * tool, reasoning.
 */
export interface MiddlewareOptions
  extends Omit<BuildOptions, "format" | "input" | "cacheControl" | "tools" | "providerCounter">,
    FromOptions {
  /**
   * The read tool (`readToolResult`, registered with the agent): offered by default; false leaves it out; `{ maxTokens
   * }` sizes its pages.
   */
  readTool?: boolean | ReadToolOptions;
}

/** The middleware `ctxloomMiddleware` makes, for `createAgent({ middleware: [...] })`. */
export interface CtxloomMiddleware {
  /** "ctxloom": an agent takes one middleware of a name. */
  readonly name: string;
  /** The read tool, registered with the agent (none with `readTool: false`). */
  readonly tools: StructuredToolInterface[];
  /**
   * Starts a run: which of the state's messages the chat holds already (those this middleware appended in an earlier
   * run).
   */
  beforeAgent(state: unknown): Promise<undefined>;
  /** Appends the state's new messages to the chat, then calls the model with the chat's context. */
  wrapModelCall<R, A>(request: R, handler: (request: R) => A): Promise<Awaited<A>>;
  /** Appends the run's last messages (the final answer). */
  afterAgent(state: unknown): Promise<undefined>;
}

const LEFT_OUT = ["format", "input", "cacheControl", "tools"];
const KEYS = [...BUILD_KEYS.filter((k) => !LEFT_OUT.includes(k)), "recall", "reasoning", "readTool"];
const BRAND = Symbol.for("AgentMiddleware"); // langchain's MIDDLEWARE_BRAND

/**
 * The read tool as a LangChain tool (`readToolResult`): the model reads a tool result its
 * context shows cleared or cut, by the message id the marker names, a page at a time. A call
 * the chat refuses is answered with a text starting "Error: " that says what to do.
 * `ctxloomMiddleware` registers it. See `readToolResult`.
 * @throws INVALID_ARGUMENT (not a chat; bad options)
 */
export function langchainReadTool(chat: Chat, options?: ReadToolOptions): StructuredToolInterface {
  const what = "langchainReadTool(chat, options)";
  checkChat(chat, what);
  const run = readRunner(chat, checkReadToolOptions(options, what));
  const fields = { name: READ_TOOL_NAME, description: READ_TOOL_DESCRIPTION, schema: readToolSchema() };
  return tool(async (input: unknown) => run(input), fields) as StructuredToolInterface;
}

/**
 * A LangChain v1 agent middleware (`createAgent({ model, tools, middleware: [ctxloomMiddleware(chat)] })`)
 * that keeps the agent's conversation in `chat`: before each model call it appends the agent
 * state's new messages (the run's input, the model's answers, the tools' results) and sends the
 * model the context the chat builds instead of the state's messages: within the model's budget,
 * the agent's tools counted, older tool results cleared (`toolResults: { clear: true }` unless
 * the options or the chat's settings say otherwise), the read tool registered. Invoke the agent
 * with the new messages only: the chat is the agent's memory. Its system prompt is the options'
 * `system`, else the chat's, else the agent's. A run that fails leaves no call open in the chat
 * (an append that fails part way answers the calls it leaves open "cancelled").
 * @throws INVALID_ARGUMENT (not a chat; bad options)
 */
export function ctxloomMiddleware(chat: Chat, options?: MiddlewareOptions): CtxloomMiddleware {
  const what = "ctxloomMiddleware(chat, options)";
  checkChat(chat, what);
  const o = checkOptions<MiddlewareOptions>(options, what, KEYS);
  const { reasoning, readTool: readOption, ...rest } = o;
  const from = fromOptions(reasoning === undefined ? undefined : { reasoning }, what);
  const read = readToolOf(readOption, what);
  const build: BuildOptions = { ...rest };
  const toolResults = agentToolResults(chat, rest.toolResults);
  if (toolResults !== undefined) build.toolResults = toolResults;
  chat.preflight([], build);
  // What the chat holds of the agent's messages: these objects, and (from earlier runs) these ids.
  let done = new WeakSet<object>();
  let runIds = new Set<string>();
  const earlier = new Set<string>();
  const idOf = (m: BaseMessage) => (typeof m.id === "string" && m.id.length > 0 ? m.id : undefined);
  const catchUp = async (state: unknown): Promise<void> => {
    const messages = stateMessages(state).filter((m) => !done.has(m) && !runIds.has(idOf(m) ?? ""));
    if (messages.length === 0) return;
    const inputs = fromLangChainMessages(messages, from); // all checked before the first is appended
    try {
      for (const input of inputs) await chat.append(input);
    } catch (error) {
      await closeCalls(chat);
      throw error;
    }
    for (const m of messages) {
      done.add(m);
      const id = idOf(m);
      if (id === undefined) continue;
      runIds.add(id);
      earlier.add(id);
    }
  };
  const counted = new WeakMap<object, ToolSetLike>();
  const wrapModelCall = async <R, A>(request: R, handler: (request: R) => A): Promise<Awaited<A>> => {
    const r = request as { state?: unknown; messages?: unknown; tools?: unknown; systemMessage?: { text?: unknown } };
    await catchUp(r.state ?? { messages: r.messages });
    const tools = Array.isArray(r.tools) ? toolSet(r.tools, counted) : undefined;
    const agentSystem = typeof r.systemMessage?.text === "string" ? r.systemMessage.text : "";
    const system =
      build.system === undefined && chat.system === null && agentSystem.length > 0 ? { system: agentSystem } : {};
    const ctx = await chat.buildForSdk({ ...build, format: "openai", ...system, ...(tools ? { tools } : {}) });
    const all = toLangChainMessages(ctx);
    let lead = 0;
    while (lead < all.length && all[lead]!.type === "system") lead++;
    const systemMessage = new SystemMessage(
      all
        .slice(0, lead)
        .map((m) => m.text)
        .join("\n\n"),
    );
    return handler({ ...request, messages: all.slice(lead), systemMessage } as R) as Awaited<A>;
  };
  return {
    [BRAND]: true,
    name: "ctxloom",
    tools: read ? [langchainReadTool(chat, read)] : [],
    async beforeAgent(state) {
      done = new WeakSet();
      runIds = new Set();
      for (const m of stateMessages(state)) if (earlier.has(idOf(m) ?? "")) done.add(m);
      return undefined;
    },
    wrapModelCall,
    async afterAgent(state) {
      await catchUp(state);
      return undefined;
    },
  } as CtxloomMiddleware & { [BRAND]: true };
}

function stateMessages(state: unknown): BaseMessage[] {
  const messages = state !== null && typeof state === "object" ? (state as { messages?: unknown }).messages : undefined;
  return Array.isArray(messages) ? (messages as BaseMessage[]) : [];
}

/** A tool as `convertToOpenAITool` gives it. */
type OpenAIFunction = { name?: string; description?: string; parameters?: unknown };

/** The agent's client tools as a ToolSet-like the build counts by the model's provider (converted once per tool). */
function toolSet(tools: readonly unknown[], counted: WeakMap<object, ToolSetLike>): ToolSetLike | undefined {
  const out: Record<string, ToolSetLike[string]> = {};
  for (const t of tools) {
    if (t === null || typeof t !== "object") continue;
    let one = counted.get(t);
    if (!one) {
      const converted = convertToOpenAITool(t as StructuredToolInterface) as {
        type?: string;
        function?: OpenAIFunction;
      };
      // A provider's server tool (web search...) has no published cost: not counted.
      const f = converted.function;
      if (converted.type !== "function" || f === undefined || typeof f.name !== "string") continue;
      one = {
        [f.name]: {
          description: f.description ?? "",
          inputSchema: { jsonSchema: f.parameters ?? { type: "object", properties: {} } },
        },
      };
      counted.set(t, one);
    }
    Object.assign(out, one);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
