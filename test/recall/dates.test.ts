// Dates a query names, and the ranking's gain for messages written on them.
import { describe, expect, it } from "vitest";
import { namedDates, onDate } from "../../src/recall/dates.js";
import { hashingEmbedder } from "../../src/recall/hashing.js";
import { RecallIndex } from "../../src/recall/memory.js";
import { ExchangeScope } from "../../src/recall/exchanges.js";
import { embedTexts } from "../../src/recall/embedder.js";
import { forEachEngine, makeEngine } from "../helpers.js";

describe("named dates", () => {
  it("reads years, months and days in the usual English forms", () => {
    expect(namedDates("What did I do in 2023?")).toEqual([{ year: 2023 }]);
    expect(namedDates("Where did we go in May 2023?")).toEqual([{ month: 4, year: 2023 }]);
    expect(namedDates("on 8 May, 2023")).toEqual([{ day: 8, month: 4, year: 2023 }]);
    expect(namedDates("on the 3rd of June")).toEqual([{ day: 3, month: 5 }]);
    expect(namedDates("since March 14th")).toEqual([{ month: 2, day: 14 }]);
    expect(namedDates("What happened in Sept?")).toEqual([{ month: 8 }]);
    expect(namedDates("I may go, you may not")).toEqual([]);
    expect(namedDates("Where did my sister move?")).toEqual([]);
    expect(namedDates("on 45 May")).toEqual([]);
  });

  it("tells whether a time falls on one of them (UTC)", () => {
    const t = Date.UTC(2023, 4, 8, 13);
    expect(onDate(t, [{ year: 2023 }])).toBe(true);
    expect(onDate(t, [{ month: 4 }])).toBe(true);
    expect(onDate(t, [{ month: 4, day: 9 }, { year: 2022 }])).toBe(false);
    expect(onDate(NaN, [{ year: 2023 }])).toBe(false);
  });
});

forEachEngine((kind) => {
  it("a message written on the date the question names comes first among equals", async () => {
    const index = RecallIndex.create(await makeEngine(kind), { embedder: hashingEmbedder({ dimension: 64 }) });
    const texts = ["We hiked the ridge trail.", "Nice!", "We hiked the ridge trail.", "Nice!"];
    const times = [Date.UTC(2023, 2, 4), Date.UTC(2023, 2, 4), Date.UTC(2023, 4, 8), Date.UTC(2023, 4, 8)];
    await index.add(
      texts.map((content, key) => ({
        key,
        role: key % 2 ? "assistant" : "user",
        content,
        time: times[key]!,
        ...(key > 0 ? { prev: key - 1 } : {}),
      })),
    );
    const scope = ExchangeScope.of(
      texts.map((_, key) => ({ key, parent: key - 1, role: key % 2 ? "assistant" : "user" })),
    );
    const rank = async (text: string) =>
      index.rank({ text, vector: await embedTexts(index.embedder, [text]) }, scope, 2).map((r) => r.key);
    expect((await rank("Where did we hike?"))[0]).toBe(0); // no date named: the earlier one leads
    expect((await rank("Where did we hike in May 2023?"))[0]).toBe(2);
    expect((await rank("Where did we hike in March?"))[0]).toBe(0);
  });
});
