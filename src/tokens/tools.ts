// What tool definitions cost in a request. OpenAI counts function definitions by a rule it
// published in its cookbook ("How to count tokens with tiktoken", counting tokens for
// chat completions calls with tools, gpt-4o family constants); other providers publish
// none, so the same rule stands as an estimate for them.
import { CtxloomError, describe } from "../errors.js";
import { TOOL_NAME } from "../message.js";
import { countText } from "./chat.js";
import type { TokenCounter } from "./types.js";

/**
 * A tool definition as an SDK takes it: OpenAI Chat Completions
 * (`{ type: "function", function: { name, description, parameters } }`), OpenAI Responses
 * (`{ type: "function", name, description, parameters }`) or Anthropic
 * (`{ name, description, input_schema }`).
 */
export type ToolDefinition =
  | { type: "function"; function: { name: string; description?: string; parameters?: unknown } }
  | { type: "function"; name: string; description?: string | null; parameters?: unknown }
  | { name: string; description?: string; input_schema: unknown };

/** A tool reduced to what is counted. */
export interface CountedTool {
  name: string;
  description: string;
  parameters: unknown;
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
 * sent as JSON (a cycle of objects cannot). @throws INVALID_ARGUMENT
 */
export function checkTools(tools: unknown): CountedTool[] {
  if (!Array.isArray(tools)) throw new CtxloomError("INVALID_ARGUMENT", `tools must be a list of tool definitions; got ${describe(tools)}.`);
  return tools.map((tool: unknown, i) => {
    const where = `tools[${i}]`;
    if (tool === null || typeof tool !== "object" || Array.isArray(tool)) {
      throw new CtxloomError("INVALID_ARGUMENT", `${where} must be a tool definition object; got ${describe(tool)}.`);
    }
    const t = tool as Record<string, unknown>;
    const fn = (t.type === "function" && t.function !== undefined ? t.function : t) as Record<string, unknown> | null;
    if (fn === null || typeof fn !== "object") throw new CtxloomError("INVALID_ARGUMENT", `${where}.function must be an object; got ${describe(fn)}.`);
    if (typeof fn.name !== "string" || fn.name.length === 0) {
      throw new CtxloomError("INVALID_ARGUMENT", `${where} needs a name: { type: "function", function: { name, description, parameters } }, { type: "function", name, ... } or { name, input_schema }.`);
    }
    if (!TOOL_NAME.test(fn.name)) {
      throw new CtxloomError("INVALID_ARGUMENT", `${where}'s name ${describe(fn.name)} is not a tool name providers accept: 1 to 64 letters, digits, "_" or "-".`);
    }
    const description = fn.description ?? "";
    if (typeof description !== "string") throw new CtxloomError("INVALID_ARGUMENT", `${where}'s description must be a string; got ${describe(description)}.`);
    const parameters = fn.parameters ?? fn.input_schema ?? {};
    if (parameters === null || typeof parameters !== "object" || Array.isArray(parameters)) {
      throw new CtxloomError("INVALID_ARGUMENT", `${where}'s parameters must be a JSON schema object; got ${describe(parameters)}.`);
    }
    try {
      JSON.stringify(parameters); // what an SDK does to send it
    } catch (error) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where}'s parameters cannot be sent as JSON (${String(error)}); a schema that refers to itself must use "$ref", not a cycle of objects.`,
      );
    }
    return { name: fn.name, description, parameters };
  });
}

/**
 * Tokens the tool definitions add to a request: OpenAI's published rule for function
 * definitions (per function 7 + "name:description"; 3 for its properties, per property 3
 * + "key:type:description", per enum value 3 + the value, less 3 per enum; 12 in all).
 * Nested object schemas, which the rule does not cover, add the tokens of their JSON text.
 * An estimate for other providers. 0 for no tools.
 */
export function toolTokens(counter: TokenCounter, tools: readonly CountedTool[]): number {
  if (tools.length === 0) return 0;
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
      if (p.properties !== undefined || p.items !== undefined) total += count(JSON.stringify({ properties: p.properties, items: p.items }));
    }
  }
  return total;
}
