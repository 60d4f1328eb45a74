// Progressive summaries at the chat level (issue 9), on both engines: the policy per Loom,
// chat and call; summaries made by buildContext, stored, restored (memory and SQLite), shared
// by branches; presentation as a system message or a tool-call pair with exact usage; a long
// conversation within budget; the originals always on path().
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Loom, countTokens, loadTokenizer, memoryStore, type LoomOptions, type Store } from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { expectRejectCode, forEachEngine } from "../helpers.js";
import { SMALL, summaryIds, talk } from "./summaries-helpers.js";

async function open(
  engine: "wasm" | "js",
  options: LoomOptions = {},
  create: Parameters<ReturnType<Loom["user"]>["create"]>[0] = {},
) {
  const loom = await Loom.open({ engine, ...options });
  const chat = await loom.user("u").create({ model: SMALL, ...create });
  return { loom, chat };
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

forEachEngine((engine) => {
  describe("policy levels", () => {
    it("off unless a level turns it on; each field from the nearest level setting it; false turns it off for one call", async () => {
      const off = await open(engine);
      await talk(off.chat, 60);
      expect((await off.chat.buildContext()).compressed).toBe(false);
      expect(summaryIds(off.chat)).toEqual([]);
      const ctx = await off.chat.buildContext({ summaries: true }); // the call turns it on
      expect(ctx.compressed).toBe(true);
      expect(summaryIds(off.chat)).toHaveLength(1);

      const loomOn = await open(engine, { summaries: true }, { summaries: false }); // the chat turns it off
      await talk(loomOn.chat, 60);
      expect((await loomOn.chat.buildContext()).compressed).toBe(false);
      // The chat's false is its trigger "manual": a call's selection alone leaves it so, a call's trigger wins.
      expect((await loomOn.chat.buildContext({ summaries: { select: { keepLast: 10 } } })).compressed).toBe(false);
      expect((await loomOn.chat.buildContext({ summaries: true })).compressed).toBe(false);
      expect(summaryIds(loomOn.chat)).toEqual([]);
      expect(
        (await loomOn.chat.buildContext({ summaries: { trigger: { fraction: 0.8 }, select: { keepLast: 10 } } }))
          .compressed,
      ).toBe(true);

      const on = await open(engine, { summaries: true });
      await talk(on.chat, 60);
      expect((await on.chat.buildContext({ summaries: false })).compressed).toBe(false);
      expect(summaryIds(on.chat)).toEqual([]);
      expect((await on.chat.buildContext()).compressed).toBe(true);
    });

    it("bad options are refused with INVALID_ARGUMENT naming the key, and change nothing", async () => {
      await expectRejectCode(() => Loom.open({ engine, summaries: { trigger: { fraction: 2 } } }), "INVALID_ARGUMENT");
      await expectRejectCode(
        () => Loom.open({ engine, summaries: { selct: { oldest: 0.3 } } as never }),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(
        () => Loom.open({ engine, summaries: { summarizer: "gpt" as never } }),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(
        () => Loom.open({ engine, summaries: { presentation: "user" as never } }),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(() => Loom.open({ engine, summaries: { prompt: "" } }), "INVALID_ARGUMENT");
      const { loom, chat } = await open(engine);
      await expectRejectCode(
        () => loom.user("u").create({ summaries: { trigger: { tokens: 0 } } }),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(
        () => loom.user("u").create({ summaries: { presentation: "both" as never } }),
        "INVALID_ARGUMENT",
      );
      await talk(chat, 60);
      await expectRejectCode(
        () => chat.buildContext({ summaries: { select: { keepLast: 3, oldest: 0.3 } } as never }),
        "INVALID_ARGUMENT",
      );
      await expectRejectCode(() => chat.buildContext({ summaries: { trigger: "yes" as never } }), "INVALID_ARGUMENT");
      await expectRejectCode(() => chat.buildPrompt({ summaries: { select: { oldest: 0 } } }), "INVALID_ARGUMENT");
      const error = await chat.buildContext({ summarise: true } as never).catch((e: Error) => e);
      expect(error.message).toContain("summaries");
      expect(summaryIds(chat)).toEqual([]);
    });

    it("the summaries group takes the same keys at every level it makes sense at, and refuses others by name", async () => {
      const message = (p: Promise<unknown>) =>
        p.then(
          () => "",
          (e: Error) => e.message,
        );
      // The flat options of 0.x are gone: refused, pointing at the group.
      expect(await message(Loom.open({ engine, summarize: true } as never))).toContain(`"summaries"`);
      expect(await message(Loom.open({ engine, summaries: { sumarizer: () => "" } as never }))).toContain(
        `"sumarizer"`,
      );
      const { loom, chat } = await open(engine);
      // A summarizer and its prompt are the Loom's (a function is not kept with a chat); a call has only a policy.
      expect(await message(loom.user("u").create({ summaries: { summarizer: () => "" } as never }))).toContain(
        `"summarizer"`,
      );
      expect(await message(chat.buildContext({ summaries: { presentation: "tool" } as never }))).toContain(
        `"presentation"`,
      );
      expect(await message(chat.buildContext({ summaries: 1 as never }))).toContain("summaries");
      expect(await loom.user("u").list()).toHaveLength(1);
    });
  });

  describe("stored summaries are checked", () => {
    it("a chat's own setting is kept with it: a Loom without summaries still summarizes it after reopening", async () => {
      const store = memoryStore();
      const first = await Loom.open({ engine, store });
      const chat = await first
        .user("u")
        .create({ model: SMALL, summaries: { select: { keepLast: 6 }, presentation: "tool" } });
      await talk(chat, 60);
      const again = await (await Loom.open({ engine, store })).user("u").open(chat.id);
      const ctx = await again.buildContext();
      expect(ctx.compressed).toBe(true);
      expect(ctx.messages).toHaveLength(2 + 6);
      expect(ctx.messages[1]).toMatchObject({ role: "tool", tool_call_id: `summary_${summaryIds(again)[0]}` });
    });

    it("an import refuses a summary that is malformed, overlaps another in part, or has the wrong parent", async () => {
      const { loom, chat } = await open(engine, { summaries: { select: { keepLast: 6 } } });
      await talk(chat, 60);
      await chat.buildContext();
      const data = chat.export();
      const sid = summaryIds(chat)[0]!;
      const bad = (change: (m: Record<string, unknown>) => void) => {
        const copy = structuredClone(data);
        change(copy.messages[sid] as unknown as Record<string, unknown>);
        return copy;
      };
      const cases = [
        bad((m) => (m.role = "user")),
        bad((m) => (m.covers = { first: 5, last: 2 })),
        bad((m) => (m.covers = { first: 0 })),
        bad((m) => (m.parentId = 3)),
        bad((m) => (m.content = "")),
        bad((m) => (m.toolCallId = "x")),
      ];
      // A second summary over part of the first one's run.
      const overlap = structuredClone(data);
      overlap.messages.push({
        ...overlap.messages[sid]!,
        id: overlap.messages.length,
        covers: { first: 2, last: sid + 1 },
        parentId: 1,
      });
      cases.push(overlap);
      for (const c of cases) await expectRejectCode(() => loom.user("v").import(c), "INVALID_ARGUMENT");
      expect(await loom.user("v").list()).toEqual([]);
      const fine = await loom.user("v").import(data);
      expect(summaryIds(fine)).toEqual([sid]);
    });

    it("a store holding a summary the engine refuses opens as STORE_CORRUPT", async () => {
      const store = memoryStore();
      const first = await Loom.open({ engine, store, summaries: { select: { keepLast: 6 } } });
      const chat = await first.user("u").create({ model: SMALL });
      await talk(chat, 60);
      await chat.buildContext();
      const sid = summaryIds(chat)[0]!;
      const m = chat.get(sid);
      // Another Loom's write: a second summary over part of the first one's run.
      const record = (await store.loadChat("u", chat.id))!.chat;
      const wrong = { ...m, id: chat.messageCount, covers: { first: 2, last: m.covers!.last + 1 }, parentId: 1 };
      expect(
        await store.appendMessage({
          userId: "u",
          chatId: chat.id,
          message: wrong,
          head: record.head!,
          updatedAt: Date.now(),
        }),
      ).toEqual({ ok: true });
      await expectRejectCode(
        () => Loom.open({ engine, store }).then((l) => l.user("u").open(chat.id)),
        "STORE_CORRUPT",
      );
    });
  });

  describe("summaries in the tree", () => {
    it("get() returns the summary with its covers; path() keeps every original; children, leaves and siblings never show it", async () => {
      const { chat } = await open(engine, { summaries: true });
      await talk(chat, 60);
      const before = chat.path();
      const ctx = await chat.buildContext();
      expect(ctx.compressed).toBe(true);
      const [sid] = summaryIds(chat);
      const s = chat.get(sid!);
      expect(s).toMatchObject({ kind: "summary", role: "system", priority: "high", parentId: null });
      expect(s.covers!.first).toBe(0);
      expect(s.covers!.last).toBeGreaterThan(s.covers!.first);
      expect(ctx.summary).toBe(s.content);
      expect(ctx.conversation[0]!.id).toBe(sid);
      expect(chat.path()).toEqual(before);
      expect(chat.leaves()).toEqual([before[before.length - 1]!.id]);
      expect(chat.roots()).toEqual([0]);
      expect(chat.children(s.covers!.last)).toEqual([s.covers!.last + 1]);
      expect(chat.children(sid!)).toEqual([]);
      expect(chat.siblings(0)).toEqual([]);
      await expectRejectCode(() => chat.checkout(sid!), "WRONG_ROLE");
    });

    it("a branch created after the summary shares it; a branch inside its run shows the originals", async () => {
      const { chat } = await open(engine, { summaries: true });
      await talk(chat, 60);
      await chat.buildContext();
      const [sid] = summaryIds(chat);
      const { last } = chat.get(sid!).covers!;
      const main = chat.head!;
      // A new answer to the newest question: a sibling branch below the run.
      await chat.regenerate(main);
      await chat.append({ role: "assistant", content: "Another answer on a new branch." });
      const branch = await chat.buildContext({ summaries: false });
      expect(branch.conversation[0]!.id).toBe(sid);
      expect(chat.siblings(chat.head!)).toEqual([main]);
      // Inside the run: an edit of a covered user message starts a branch the summary does not reach.
      const inside = chat.path().find((m) => m.role === "user" && m.id < last && m.id > 0)!;
      await chat.edit(inside.id, "A rewritten question.");
      const edited = await chat.buildContext({ summaries: false });
      expect(edited.compressed).toBe(false);
      expect(edited.conversation.some((m) => m.kind === "summary")).toBe(false);
    });

    it("a 4,000-message conversation stays within budget at every build; every original stays on path()", async () => {
      const { chat } = await open(engine, { summaries: true });
      let compressedBuilds = 0;
      for (let i = 0; i < 2000; i++) {
        await talk(chat, 1, i);
        const ctx = await chat.buildContext();
        expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
        expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: SMALL }));
        if (ctx.compressed) compressedBuilds++;
      }
      const path = chat.path();
      expect(path).toHaveLength(4000);
      expect(path.every((m) => m.kind === "message")).toBe(true);
      expect(path.map((m) => m.content).slice(0, 2)).toEqual([
        "Question 0 asks about topic 0. It adds a few more words.",
        "Answer 0 settles topic 0. Then it explains a little.",
      ]);
      const stats = chat.stats();
      expect(stats.compressions).toBe(summaryIds(chat).length);
      expect(stats.compressions).toBeGreaterThan(10);
      expect(stats.tokensSaved).toBeGreaterThan(50_000);
      expect(stats.compressionRatio).toBeGreaterThan(1.5);
      expect(stats.fallbacks).toBe(0);
      expect(compressedBuilds).toBeGreaterThan(1900);
    }, 120_000);
  });

  describe("presentation", () => {
    it('"system": one system message with the summary; usage is the cookbook count of what is sent', async () => {
      const { chat } = await open(engine, { summaries: true });
      await talk(chat, 60);
      const ctx = await chat.buildContext();
      expect(ctx.messages[0]).toEqual({
        role: "system",
        content: `Summary of the earlier conversation:\n${ctx.summary}`,
      });
      expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: SMALL }));
      expect(await chat.buildPrompt({ summaries: false })).toContain(
        `System: Summary of the earlier conversation:\n${ctx.summary}`,
      );
    });

    it('"tool" (per chat, over the Loom): a summarize_history call and its result with a matching id; exact usage', async () => {
      const { chat } = await open(
        engine,
        { summaries: { trigger: { fraction: 0.8 }, presentation: "system" } },
        { summaries: { presentation: "tool" } },
      );
      await talk(chat, 60);
      const ctx = await chat.buildContext();
      const [sid] = summaryIds(chat);
      expect(ctx.messages[0]).toEqual({
        role: "assistant",
        content: "",
        tool_calls: [
          { id: `summary_${sid}`, type: "function", function: { name: "summarize_history", arguments: "{}" } },
        ],
      });
      expect(ctx.messages[1]).toEqual({ role: "tool", content: ctx.summary, tool_call_id: `summary_${sid}` });
      expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: SMALL }));
    });

    it("exact counting (o200k): usage.total is the count of what is sent, in both presentations", async () => {
      const exact = { ...SMALL, name: "sum-exact", encoding: "o200k_base" as const };
      await loadTokenizer(exact);
      for (const summaryPresentation of ["system", "tool"] as const) {
        const { chat } = await open(
          engine,
          { summaries: { trigger: { fraction: 0.8 }, presentation: summaryPresentation } },
          { model: exact },
        );
        await talk(chat, 60);
        const ctx = await chat.buildContext();
        expect(ctx.compressed).toBe(true);
        expect(ctx.usage.total).toBe(countTokens(ctx.messages, { model: exact }));
      }
    });

    it("Anthropic: the summary goes to the system text, the messages start with the user's", async () => {
      const { chat } = await open(engine, { summaries: true });
      await talk(chat, 60);
      await chat.append({ role: "user", content: "And now?" });
      const ctx = await chat.buildContext({ format: "anthropic" });
      expect(ctx.compressed).toBe(true);
      expect(ctx.system).toContain(`Summary of the earlier conversation:\n${ctx.summary}`);
      expect(ctx.messages[0]!.role).toBe("user");
      expect(ctx.usage.total).toBeLessThanOrEqual(ctx.usage.limit);
    });
  });

  describe("reopening", () => {
    const stores: [string, () => { store: Store; reopen: () => Store }][] = [
      [
        "memory",
        () => {
          const store = memoryStore();
          return { store, reopen: () => store };
        },
      ],
      [
        "sqlite",
        () => {
          const dir = mkdtempSync(join(tmpdir(), "ctxloom-sum-"));
          dirs.push(dir);
          return { store: sqliteStore(join(dir, "chats.db")), reopen: () => sqliteStore(join(dir, "chats.db")) };
        },
      ],
    ];
    for (const [name, make] of stores) {
      it(`a new Loom (the other engine) over the same ${name} store gives the same contexts and stats`, async () => {
        const { store, reopen } = make();
        const first = await Loom.open({
          engine,
          store,
          summaries: { trigger: { fraction: 0.8 }, presentation: "tool" },
        });
        const chat = await first.user("u").create({ model: SMALL });
        await talk(chat, 120);
        for (let i = 0; i < 3; i++) {
          await chat.buildContext();
          await talk(chat, 15, 200 + 15 * i);
        }
        const ctx = await chat.buildContext({ summaries: false });
        const stats = chat.stats();
        expect(stats.compressions).toBeGreaterThan(1);
        const summaries = summaryIds(chat).map((id) => chat.get(id));
        const path = chat.path();
        if (name !== "memory") await first.close();
        const second = await Loom.open({
          engine: engine === "wasm" ? "js" : "wasm",
          store: reopen(),
          summaries: { presentation: "tool" },
        });
        const again = await second.user("u").open(chat.id);
        expect(summaryIds(again).map((id) => again.get(id))).toEqual(summaries);
        const ctx2 = await again.buildContext();
        expect(ctx2.messages).toEqual(ctx.messages);
        expect(ctx2.usage).toEqual(ctx.usage);
        const stats2 = again.stats();
        expect([stats2.compressions, stats2.tokensSaved, stats2.compressionRatio]).toEqual([
          stats.compressions,
          stats.tokensSaved,
          stats.compressionRatio,
        ]);
        expect(again.path()).toEqual(path);
        const copy = await second.user("w").import(again.export());
        expect((await copy.buildContext()).messages).toEqual(ctx.messages);
        await second.close();
      });
    }
  });
});
