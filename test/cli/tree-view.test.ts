// The tree drawing: branch points indent, runs of single replies stay in one column.
import { describe, expect, it } from "vitest";
import { drawTree } from "../../src/cli/tree-view.js";
import { Loom } from "../../src/index.js";

describe("drawTree", () => {
  it("draws branches, the active branch and the head", async () => {
    const loom = await Loom.open({ counter: "heuristic" });
    const chat = await loom.user("u").create();
    await chat.append({ role: "user", content: "q1" });
    const a1 = await chat.append({ role: "assistant", content: "a1" });
    await chat.append({ role: "user", content: "q2" });
    await chat.append({ role: "assistant", content: "a2" });
    await chat.regenerate(a1.id);
    await chat.append({ role: "assistant", content: "a1 again\n  with   space" });
    await chat.edit(0, "q1 edited");
    expect(drawTree(chat)).toBe(
      [
        "├─ #0 user: q1",
        "│ ├─ #1 assistant: a1",
        "│ │  #2 user: q2",
        "│ │  #3 assistant: a2",
        "│ └─ #4 assistant: a1 again with space",
        "└─*#5 user: q1 edited  <- head",
      ].join("\n"),
    );
    await loom.close();
  });

  it("a long linear chat stays narrow", async () => {
    const loom = await Loom.open({ counter: "heuristic" });
    const chat = await loom.user("u").create();
    for (let i = 0; i < 3000; i++) await chat.append({ role: i % 2 ? "assistant" : "user", content: `m${i}` });
    const lines = drawTree(chat).split("\n");
    expect(lines.length).toBe(3000);
    expect(lines[2999]).toBe("*#2999 assistant: m2999  <- head");
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(40);
    await loom.close();
  });
});
