// The build plan (issue 7, item 2): options and the chat's settings resolved once, before
// anything is selected or formatted.
import { describe, expect, it } from "vitest";
import { planBuild } from "../../src/context/build-plan.js";
import type { ContextSource } from "../../src/context/types.js";
import { budgetFor, getModelProfile } from "../../src/index.js";
import { HISTORY_LIMITS } from "../../src/models/profiles.js";
import { heuristicCounter } from "../../src/tokens-entry.js";
import { JsEngine } from "../../src/engine/index.js";
import { expectThrowCode } from "../helpers.js";

const source = (over: Partial<ContextSource> = {}): ContextSource => ({
  engine: new JsEngine(),
  tree: 0,
  head: -1,
  counter: heuristicCounter(),
  profile: getModelProfile("gpt-4o"),
  system: "chat system",
  budget: undefined,
  historyLimits: undefined,
  message: () => {
    throw new Error("a plan reads no message");
  },
  ...over,
});

describe("planBuild", () => {
  it("takes the chat's settings, and the call's over them", () => {
    const chat = planBuild(source({ budget: { system: 0.1, conversation: 0.55 }, historyLimits: true }), undefined);
    expect(chat.profile.name).toBe("gpt-4o");
    expect(chat.budget).toEqual(budgetFor("gpt-4o", { budget: { system: 0.1, conversation: 0.55 } }));
    expect(chat.limit).toBe(chat.budget.effective - chat.budget.reserve);
    expect(chat.limits).toEqual(HISTORY_LIMITS.xlarge);
    expect(chat.window).toBe(2 * HISTORY_LIMITS.xlarge.maxTurns);
    expect(chat.system).toBe("chat system");
    expect(chat.format).toBe("openai");

    const call = planBuild(source({ historyLimits: true }), {
      model: "gpt-4",
      system: "mine",
      memory: "m",
      input: "i",
      maxMessages: 7,
      historyLimits: { maxTurns: 2 },
      format: "anthropic",
    });
    expect(call.profile.name).toBe("gpt-4");
    expect(call.budget).toEqual(budgetFor("gpt-4"));
    expect(call.limits).toEqual({ ...HISTORY_LIMITS.small, maxTurns: 2 });
    expect(call.window).toBe(4); // the smaller of maxMessages and twice the turns
    expect([call.system, call.memory, call.input, call.format]).toEqual(["mine", "m", "i", "anthropic"]);
    expect(planBuild(source(), { historyLimits: false, maxMessages: 9 }).window).toBe(9);
  });

  it("counts stay the chat's counter whatever model sets the budget", () => {
    const counter = heuristicCounter(0.3);
    expect(planBuild(source({ counter }), { model: "gpt-4.1" }).counter).toBe(counter);
  });

  it("every bad option is refused while planning, before the engine is asked anything", () => {
    const engine = new JsEngine();
    let asked = 0;
    const spy = new Proxy(engine, { get: (target, key) => (asked++, Reflect.get(target, key)) });
    for (const bad of [
      { model: "nope-1" },
      { budget: { system: 2 } },
      { historyLimits: { maxTurn: 1 } },
      { maxMessages: 0 },
      { format: "xml" },
      { input: "" },
      { memory: 3 },
      { recall: true },
      { sytem: "x" },
    ]) {
      let code = "";
      try {
        planBuild(source({ engine: spy }), bad as never);
      } catch (e) {
        code = (e as { code: string }).code;
      }
      expect(["INVALID_ARGUMENT", "INVALID_CONTENT", "UNKNOWN_MODEL"], JSON.stringify(bad)).toContain(code);
    }
    expect(asked).toBe(0);
    expectThrowCode(() => planBuild(source(), null as never), "INVALID_ARGUMENT");
  });
});
