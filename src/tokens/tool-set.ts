// An AI SDK ToolSet ({ weather: tool({ description, inputSchema }) }) read without the AI SDK:
// each tool's JSON schema is taken where its schema gives it at once (an AI SDK Schema from
// jsonSchema() or zodSchema(), a lazy schema, a Standard JSON Schema such as Zod 4's). What
// only the AI SDK can convert (a Zod 3 schema, a schema given as a promise) is refused with a
// pointer to ctxloom/ai-sdk, whose helpers convert it with the SDK's own asSchema.
import { CtxloomError, describe } from "../errors.js";

/**
 * A tool of an AI SDK ToolSet, structurally: what `tool({ description, inputSchema })` and
 * `dynamicTool(...)` return. Its `inputSchema` is an AI SDK Schema (`jsonSchema()`,
 * `zodSchema()`), a lazy schema, or a Standard JSON Schema (Zod 4, ArkType, Valibot's).
 */
export interface ToolSetTool {
  /** The AI SDK's kind of tool ("function", "dynamic", "provider"...), when set. */
  readonly type?: string;
  /** What the tool does, for the model (or a function returning it). */
  readonly description?: string | ((...args: never[]) => string);
  /** The schema of the tool's input. */
  readonly inputSchema?: unknown;
}

/** An AI SDK ToolSet, structurally: tools by name. */
export type ToolSetLike = { readonly [name: string]: ToolSetTool };

/** A ToolSet's tool as read: its name, description and JSON schema, to be checked like any tool. */
export interface ToolSetEntry {
  name: string;
  description: unknown;
  parameters: unknown;
}

const CONVERT =
  "pass `await resolveToolSet(tools)` from ctxloom/ai-sdk instead (it converts them with the AI SDK's own asSchema; " +
  "chatLoop does so itself)";

/** Each tool of an AI SDK ToolSet with its JSON schema. @throws INVALID_ARGUMENT, UNSUPPORTED_TOOL (a provider tool) */
export function readToolSet(tools: object): ToolSetEntry[] {
  return Object.entries(tools).map(([name, value]: [string, unknown]) => {
    const where = `tools.${name}`;
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where} must be a tool (tool({ description, inputSchema }) from "ai"); got ${describe(value)}. tools ` +
          `takes a list of tool definitions or an AI SDK ToolSet.`,
      );
    }
    const t = value as Record<string, unknown>;
    if (t.type !== undefined && t.type !== "function" && t.type !== "dynamic") {
      throw new CtxloomError(
        "UNSUPPORTED_TOOL",
        `${where} is a provider tool (type ${describe(t.type)}), whose cost its provider does not publish; leave it ` +
          `out of tools, and keep room for it with maxOutputTokens or the budget.`,
      );
    }
    if (typeof t.description === "function") {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `${where}'s description is a function of the call's context; counting needs its text: pass a ToolSet whose ` +
          `descriptions are strings.`,
      );
    }
    return { name, description: t.description, parameters: jsonSchemaOf(t.inputSchema, `${where}.inputSchema`) };
  });
}

/** The JSON schema a tool's input schema gives at once. */
function jsonSchemaOf(schema: unknown, where: string): unknown {
  if (schema === undefined) return { type: "object", properties: {} }; // what the AI SDK sends for a tool without one
  let json: unknown;
  try {
    // a lazy schema gives its schema when called
    const s: unknown = typeof schema === "function" ? (schema as () => unknown)() : schema;
    if (s !== null && typeof s === "object" && "jsonSchema" in s) json = (s as { jsonSchema: unknown }).jsonSchema;
    else if (s !== null && typeof s === "object" && "~standard" in s) {
      const converter = (s as { "~standard"?: { jsonSchema?: { input?: unknown } } })["~standard"]?.jsonSchema;
      if (converter !== undefined && typeof converter.input === "function")
        json = (converter.input as (o: object) => unknown)({ target: "draft-07" });
    }
  } catch (cause) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where} could not give its JSON schema (${String(cause)}); ${CONVERT}.`,
      { cause },
    );
  }
  if (json !== null && typeof json === "object" && typeof (json as { then?: unknown }).then === "function") {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where} gives its JSON schema as a promise, which a build cannot wait for; ${CONVERT}.`,
    );
  }
  if (json === undefined) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `${where} gives no JSON schema (a Zod 3 schema, or a Standard Schema without JSON Schema support?); ${CONVERT}.`,
    );
  }
  return json;
}
