// What tool definitions cost in a request, counted the way each provider does. OpenAI counts
// function definitions by a rule it published in its cookbook ("How to count tokens with
// tiktoken", counting tokens for chat completions calls with tools, gpt-4o family constants).
// Anthropic publishes the size of the system prompt it adds for tools, per model ("Tool use
// pricing"), and counts the definitions' names, descriptions and schemas as input: their
// JSON text is counted. Which rule applies follows the shape the tools come in; an AI SDK
// ToolSet, sent to any provider, follows the model the context is built for.
import { CtxloomError, describe } from "../errors.js";
import { TOOL_NAME } from "../message.js";
import { countText } from "./chat.js";
import { readToolSet, type ToolSetLike } from "./tool-set.js";
import type { TokenCounter } from "./types.js";

export type { ToolSetLike, ToolSetTool } from "./tool-set.js";

/** An OpenAI Chat Completions function tool: `{ type: "function", function: { name, description, parameters } }`. */
export interface ChatCompletionsToolLike {
  /** Always "function". */
  type: "function";
  /** The function: its name, description, JSON schema of its parameters, and strict mode. */
  function: { name: string; description?: string; parameters?: unknown; strict?: boolean | null };
}

/** An OpenAI Responses function tool: `{ type: "function", name, description, parameters }`. */
export interface ResponsesToolLike {
  /** Always "function". */
  type: "function";
  /** The function's name. */
  name: string;
  /** What the function does, for the model. */
  description?: string | null;
  /** The JSON schema of its parameters. */
  parameters?: unknown;
  /** Whether OpenAI enforces the schema (strict mode). */
  strict?: boolean | null;
}

/** An Anthropic tool: `{ name, description, input_schema }`. */
export interface AnthropicToolLike {
  /** "custom" or left out, for a tool the client defines. */
  type?: "custom" | null;
  /** The tool's name. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** The JSON schema of its input. */
  input_schema: unknown;
}

/**
 * A tool the SDKs' tool types hold beside function tools, whose cost its provider does not
 * publish: an OpenAI custom tool (`{ type: "custom", custom }` or `{ type: "custom", name }`), a
 * built-in tool (`{ type: "web_search" }`, Anthropic's `{ type: "bash_20250124", name }`...).
 * Typed so that a list of the SDK's own type (`ChatCompletionTool[]`, Responses `Tool[]`) goes
 * in as it is; refused when a context is built (UNSUPPORTED_TOOL).
 */
export interface UncountedToolLike {
  /** The tool's type ("custom", "web_search", "bash_20250124", ...). */
  type: string;
  /** Never set: a tool with `function` is a Chat Completions function tool. */
  function?: never;
  /** Never set: a tool with `input_schema` is an Anthropic tool. */
  input_schema?: never;
}

/**
 * A tool definition as an SDK takes it: OpenAI Chat Completions, OpenAI Responses or Anthropic
 * function tools, or a tool of those SDKs that cannot be counted (refused at run time).
 */
export type ToolDefinition = ChatCompletionsToolLike | ResponsesToolLike | AnthropicToolLike | UncountedToolLike;

/**
 * Tools as `buildContext({ tools })` takes them: a list of one provider's tool definitions
 * (OpenAI Chat Completions, OpenAI Responses, or Anthropic: the SDKs' own `ChatCompletionTool[]`,
 * Responses `Tool[]`, Anthropic `ToolUnion[]`), or an AI SDK ToolSet
 * (`{ weather: tool({ description, inputSchema }) }`).
 */
export type ToolsInput = readonly ToolDefinition[] | ToolSetLike;

/** A tool reduced to what is counted. */
export interface CountedTool {
  name: string;
  description: string;
  parameters: unknown;
}

/** Whose rule counts the tools: OpenAI's, Anthropic's, or the model's provider's (an AI SDK ToolSet). */
export type ToolRule = "openai" | "anthropic" | "model";

/** Tools checked: what is counted of each, and the rule they are counted by. */
export interface CheckedTools {
  rule: ToolRule;
  tools: CountedTool[];
}

// The cookbook's constants for the gpt-4o family.
const FUNC_INIT = 7;
const PROP_INIT = 3;
const PROP_KEY = 3;
const ENUM_INIT = -3;
const ENUM_ITEM = 3;
const FUNC_END = 12;

/**
 * Tool definitions checked and reduced to name, description and parameters: a name providers
 * accept (1 to 64 letters, digits, "_" or "-"), parameters a JSON schema object that can be
 * sent as JSON (a cycle of objects cannot), one provider's shape throughout. Custom and built-in
 * tools (free-text input; a web search, a code interpreter: a `type` other than "function"),
 * whose cost providers do not publish, are refused. @throws INVALID_ARGUMENT, UNSUPPORTED_TOOL
 */
export function checkTools(tools: unknown): CheckedTools {
  if (tools !== null && typeof tools === "object" && !Array.isArray(tools)) {
    return { rule: "model", tools: readToolSet(tools).map((t) => checkTool(t, `tools.${t.name}`)) };
  }
  if (!Array.isArray(tools)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `tools must be a list of tool definitions or an AI SDK ToolSet ({ weather: tool({ ... }) }); got ` +
        `${describe(tools)}.`,
    );
  }
  let rule: ToolRule | undefined;
  const out = tools.map((tool: unknown, i) => {
    const where = `tools[${i}]`;
    if (tool === null || typeof tool !== "object" || Array.isArray(tool)) {
      throw new CtxloomError("INVALID_ARGUMENT", `${where} must be a tool definition object; got ${describe(tool)}.`);
    }
    const t = tool as Record<string, unknown>;
    const anthropic = t.type !== "function";
    if (anthropic && t.type !== undefined && t.type !== null && t.type !== "custom") builtIn(where, t.type);
    if (anthropic && !("input_schema" in t) && t.type === "custom") {
      throw new CtxloomError(
        "UNSUPPORTED_TOOL",
        `${where} is an OpenAI custom tool (type "custom": free-text input, maybe a grammar), whose cost OpenAI ` +
          `does not publish; ` +
          "declare it as a function tool to have it counted, or leave it out of tools and keep room for it with " +
          "maxOutputTokens or the budget.",
      );
    }
    const fn = (t.type === "function" && t.function !== undefined ? t.function : t) as Record<string, unknown> | null;
    if (fn === null || typeof fn !== "object")
      throw new CtxloomError("INVALID_ARGUMENT", `${where}.function must be an object; got ${describe(fn)}.`);
    const shape: ToolRule = anthropic ? "anthropic" : "openai";
    if (rule !== undefined && rule !== shape) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} is an ${shape === "openai" ? "OpenAI" : "Anthropic"} tool among ` +
          `${rule === "openai" ? "OpenAI" : "Anthropic"} ones; a request goes to one provider: pass its tools in ` +
          `its shape.`,
      );
    }
    rule = shape;
    return checkTool(
      { name: fn.name, description: fn.description, parameters: fn.parameters ?? fn.input_schema },
      where,
    );
  });
  return { rule: rule ?? "openai", tools: out };
}

function builtIn(where: string, type: unknown): never {
  throw new CtxloomError(
    "UNSUPPORTED_TOOL",
    `${where} is a built-in tool (type ${describe(type)}), whose cost its provider does not publish; leave it out ` +
      `of tools, and keep room for it with maxOutputTokens or the budget.`,
  );
}

function checkTool(t: { name: unknown; description: unknown; parameters: unknown }, where: string): CountedTool {
  if (typeof t.name !== "string" || t.name.length === 0) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where} needs a name: { type: "function", function: { name, description, parameters } }, { type: ` +
        `"function", name, ... } or { name, input_schema }.`,
    );
  }
  if (!TOOL_NAME.test(t.name)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where}'s name ${describe(t.name)} is not a tool name providers accept: 1 to 64 letters, digits, "_" or "-".`,
    );
  }
  const description = t.description ?? "";
  if (typeof description !== "string")
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where}'s description must be a string; got ${describe(description)}.`,
    );
  const parameters = t.parameters ?? {};
  if (parameters === null || typeof parameters !== "object" || Array.isArray(parameters)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where}'s parameters must be a JSON schema object; got ${describe(parameters)}.`,
    );
  }
  try {
    JSON.stringify(parameters); // what an SDK does to send it
  } catch (error) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where}'s parameters cannot be sent as JSON (${String(error)}); a schema that refers to itself must use ` +
        `"$ref", not a cycle of objects.`,
    );
  }
  return { name: t.name, description, parameters };
}

/** Whether a model (by its profile's name) is Anthropic's: a Claude, or a name read by its provider "anthropic/". */
const isClaude = (model: string): boolean => /claude/i.test(model) || /^anthropic\//i.test(model);

/**
 * Tokens of the system prompt Anthropic adds to a request with tools, by model: the larger
 * of its two published figures (tool_choice auto or none; any or tool), since a build does
 * not know the tool_choice: 346 (313) for Claude 3.7 Sonnet and the Claude 4 models, taken for
 * any other Claude too; Claude 3 Opus 530 (281), Claude 3 Sonnet 159 (235), Claude 3 and 3.5
 * Haiku 264 (340).
 */
export function anthropicToolPrompt(model: string): number {
  const m = model.toLowerCase();
  if (m.includes("claude-3-opus")) return 530;
  if (m.includes("claude-3-sonnet")) return 235;
  if (m.includes("claude-3-haiku") || m.includes("claude-3-5-haiku")) return 340;
  return 346;
}

/**
 * Tokens the tool definitions add to a request (0 for no tools), by the rule of `checked`:
 * - OpenAI's published rule for function definitions (per function 7 + "name:description";
 *   3 for its properties, per property 3 + "key:type:description", per enum value 3 + the
 *   value, less 3 per enum; 12 in all). Nested object schemas, which the rule does not
 *   cover, add the tokens of their JSON text.
 * - Anthropic's: the tool-use system prompt of `model` (anthropicToolPrompt) and the JSON
 *   text of the definitions (`[{ name, description, input_schema }]`).
 * - An AI SDK ToolSet: Anthropic's for a Claude model (a name with "claude", or read by its
 *   provider "anthropic/"), OpenAI's otherwise. OpenAI's rule is an estimate for providers
 *   that publish none.
 */
export function toolTokens(counter: TokenCounter, checked: CheckedTools, model: string): number {
  const { tools } = checked;
  if (tools.length === 0) return 0;
  const rule = checked.rule === "model" ? (isClaude(model) ? "anthropic" : "openai") : checked.rule;
  if (rule === "anthropic") {
    const sent = tools.map((t) =>
      t.description === ""
        ? { name: t.name, input_schema: t.parameters }
        : { name: t.name, description: t.description, input_schema: t.parameters },
    );
    return anthropicToolPrompt(model) + countText(counter, JSON.stringify(sent));
  }
  const count = (text: string) => countText(counter, text);
  let total = FUNC_END;
  for (const tool of tools) {
    total += FUNC_INIT + count(`${tool.name}:${tool.description}`);
    const properties = (tool.parameters as { properties?: unknown }).properties;
    if (properties === null || typeof properties !== "object" || Array.isArray(properties)) continue;
    const keys = Object.keys(properties);
    if (keys.length === 0) continue;
    total += PROP_INIT;
    for (const key of keys) {
      const p = ((properties as Record<string, unknown>)[key] ?? {}) as Record<string, unknown>;
      total += PROP_KEY;
      if (Array.isArray(p.enum)) {
        total += ENUM_INIT;
        for (const item of p.enum) total += ENUM_ITEM + count(String(item));
      }
      let desc = typeof p.description === "string" ? p.description : "";
      if (desc.endsWith(".")) desc = desc.slice(0, -1);
      const type = typeof p.type === "string" ? p.type : Array.isArray(p.type) ? p.type.join("|") : "";
      total += count(`${key}:${type}:${desc}`);
      if (p.properties !== undefined || p.items !== undefined)
        total += count(JSON.stringify({ properties: p.properties, items: p.items }));
    }
  }
  return total;
}
