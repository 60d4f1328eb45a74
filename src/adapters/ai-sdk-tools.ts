// An AI SDK ToolSet's schemas resolved with the SDK's own asSchema, for a build to count.
import { asSchema, type ToolSet } from "ai";
import { CtxloomError, describe } from "../errors.js";
import type { ToolSetLike, ToolSetTool } from "../tokens/tools.js";

/**
 * The tools of an AI SDK ToolSet with their JSON schemas as the AI SDK sends them
 * (converted by its `asSchema`: Zod 3 and 4, Standard JSON Schemas, `jsonSchema()` given a
 * promise), for `chat.buildContext({ tools })` to count. `buildContext` reads a ToolSet by
 * itself where each schema gives its JSON schema at once (`jsonSchema()`, `zodSchema()`,
 * Zod 4); this covers the rest. Descriptions are kept; provider tools are passed on as they
 * are (the build refuses them: their cost is not published).
 * @throws INVALID_ARGUMENT (not a ToolSet; a schema the AI SDK cannot convert)
 */
export async function resolveToolSet(tools: ToolSet): Promise<ToolSetLike> {
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) {
    throw new CtxloomError(
      "INVALID_ARGUMENT",
      `resolveToolSet takes an AI SDK ToolSet ({ weather: tool({ description, inputSchema }) }); got ` +
        `${describe(tools)}.`,
    );
  }
  const out: Record<string, ToolSetTool> = {};
  for (const [name, value] of Object.entries(tools) as [string, unknown][]) {
    const t = value as Record<string, unknown> | null;
    if (
      t === null ||
      typeof t !== "object" ||
      (t.type !== undefined && t.type !== "function" && t.type !== "dynamic")
    ) {
      out[name] = value as ToolSetTool; // the build says what is wrong with it
      continue;
    }
    let jsonSchema: unknown;
    try {
      jsonSchema = await asSchema(t.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema;
    } catch (cause) {
      throw new CtxloomError(
        "INVALID_ARGUMENT",
        `tools.${name}.inputSchema cannot be converted to a JSON schema by the AI SDK (${String(cause)}).`,
        { cause },
      );
    }
    out[name] = { description: t.description as ToolSetTool["description"], inputSchema: { jsonSchema } };
  }
  return out;
}
