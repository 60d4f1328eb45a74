/**
 * A context in OpenAI's Responses format: the system prompt and the memory as system items
 * first, then the conversation (reasoning and compactions as items of their own) and the input.
 */
import { toResponses } from "./format.js";
import type { BuildPlan } from "./build-plan.js";
import type { Counted, Selection } from "./selection.js";
import { windowOf, type Base } from "./window.js";
import type { ContextWindow } from "./types.js";

/** The Responses context of a selection. */
export function responsesWindow(plan: BuildPlan, c: Counted, s: Selection, base: Base): ContextWindow {
  const input = plan.input;
  const inputMessage = input === undefined ? [] : [{ role: "user" as const, content: input }];
  const lead = [c.system, c.memory]
    .filter((t) => t.length > 0)
    .map((content) => ({ role: "system" as const, content }));
  return windowOf(base, "responses", toResponses([...lead, ...s.conversation, ...inputMessage]), c.system);
}
