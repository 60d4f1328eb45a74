// Summaries have one shape at every level (issue 33): SummaryOptions at Loom.open, without the
// summarizer and prompt at create() and in what a chat keeps and exports, without presentation
// either at buildContext(). A chat stored or exported by an older release (`summarize`,
// `summaryPresentation`) reads as the new shape and behaves as before; every bad setting is
// refused with INVALID_ARGUMENT naming its key, changing nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  CtxloomError,
  Loom,
  memoryStore,
  type Chat,
  type ChatExport,
  type CreateChatOptions,
} from "../../src/index.js";
import { sqliteStore } from "../../src/sqlite.js";
import { forEachEngine } from "../helpers.js";
import { SMALL, summaryIds, talk } from "./summaries-helpers.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The error a call fails with (a CtxloomError), or a failure of the test. */
async function refusal(call: () => Promise<unknown>): Promise<CtxloomError> {
  const error = await call().then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof CtxloomError)) throw new Error(`expected a CtxloomError, got ${String(error)}`);
  return error;
}

/** Talks, builds, compacts: what a chat sends and keeps, for two chats to be compared. */
async function behaviour(chat: Chat) {
  await talk(chat, 60);
  const built = await chat.buildContext();
  const compacted = await chat.compact();
  const after = await chat.buildContext({ input: "Next question." });
  return {
    built: built.messages,
    compressed: built.compressed,
    compacted: compacted?.content ?? null,
    after: after.messages,
    summaries: summaryIds(chat),
  };
}

// The older shape and the new one it reads as (under a Loom that sets no trigger).
const OLD: { old: Record<string, unknown>; now: NonNullable<CreateChatOptions["summaries"]> }[] = [
  {
    old: { summarize: { select: { keepLast: 6 } }, summaryPresentation: "tool" },
    now: { select: { keepLast: 6 }, presentation: "tool" },
  },
  { old: { summarize: true, summaryPresentation: "tool" }, now: { trigger: { fraction: 0.8 }, presentation: "tool" } },
  { old: { summarize: false }, now: false },
  { old: { summaryPresentation: "tool" }, now: { presentation: "tool" } },
];

forEachEngine((engine) => {
  describe("a chat kept in the older shape", () => {
    it("stored by SQLite (summarize / summaryPresentation in its row) loads as summaries and behaves as one created so", async () => {
      const dir = mkdtempSync(join(tmpdir(), "ctxloom-shape-"));
      dirs.push(dir);
      const path = join(dir, "chats.db");
      const first = await Loom.open({ engine, store: sqliteStore(path) });
      for (const [i, { now }] of OLD.entries()) {
        await first.user("u").create({ id: `old-${i}`, model: SMALL, summaries: now });
        await first.user("u").create({ id: `new-${i}`, model: SMALL, summaries: now });
      }
      await first.close();
      const db = new Database(path);
      const read = db.prepare("SELECT options FROM chats WHERE id = ?").pluck();
      const write = db.prepare("UPDATE chats SET options = ? WHERE id = ?");
      for (const [i, { old }] of OLD.entries()) {
        // The row as the older release wrote it: its other settings (the model's profile) as they are.
        const { summaries, ...rest } = JSON.parse(read.get(`old-${i}`) as string) as Record<string, unknown>;
        expect(summaries).toBeDefined();
        expect(write.run(JSON.stringify({ ...rest, ...old }), `old-${i}`).changes).toBe(1);
      }
      db.close();

      const second = await Loom.open({ engine, store: sqliteStore(path) });
      for (const [i, { now }] of OLD.entries()) {
        const old = await second.user("u").open(`old-${i}`);
        const made = await second.user("u").open(`new-${i}`);
        expect(old.export().chat.options, `case ${i}`).toEqual(made.export().chat.options);
        expect(old.export().chat.options?.summaries, `case ${i}`).toEqual(now);
        const was = await behaviour(old);
        expect(was, `case ${i}`).toEqual(await behaviour(made));
        expect(was.summaries.length, `case ${i}: summaries were made`).toBeGreaterThan(0);
        if (now === false) expect(was.compressed, "off: only compact() summarized").toBe(false);
        else if (typeof now === "object" && now.presentation === "tool") {
          const on = now.trigger !== undefined || now.select !== undefined;
          expect(
            was.built.some((m) => m.role === "tool"),
            `case ${i}: sent as tool results when on`,
          ).toBe(on);
        }
      }
      await second.close();
    });

    it("stored with a malformed older setting: STORE_CORRUPT naming it, on open", async () => {
      const dir = mkdtempSync(join(tmpdir(), "ctxloom-shape-"));
      dirs.push(dir);
      const path = join(dir, "chats.db");
      const first = await Loom.open({ engine, store: sqliteStore(path) });
      await first.user("u").create({ id: "c" });
      await first.close();
      const db = new Database(path);
      db.prepare("UPDATE chats SET options = ? WHERE id = 'c'").run(JSON.stringify({ summarize: "often" }));
      db.close();
      const second = await Loom.open({ engine, store: sqliteStore(path) });
      const error = await refusal(() => second.user("u").open("c"));
      expect(error.code).toBe("STORE_CORRUPT");
      expect(error.message).toContain("options.summarize");
      await second.close();
    });

    it("an export in the older shape imports, reads as the new shape and behaves as the chat it came from", async () => {
      const loom = await Loom.open({ engine, store: memoryStore() });
      for (const [i, { old, now }] of OLD.entries()) {
        const chat = await loom.user("u").create({ model: SMALL, summaries: now });
        const data = chat.export();
        const { summaries, ...rest } = data.chat.options!;
        expect(summaries).toEqual(now); // exports carry the new shape
        const older: ChatExport = {
          ...data,
          chat: { ...data.chat, options: { ...rest, ...old } as ChatExport["chat"]["options"] },
        };
        const imported = await loom.user(`v${i}`).import(JSON.stringify(older));
        expect(imported.export().chat.options, `case ${i}`).toEqual(data.chat.options);
        expect(await behaviour(imported), `case ${i}`).toEqual(await behaviour(chat));
      }
      await loom.close();
    });

    it("an older export whose summary settings are malformed or doubled imports nothing", async () => {
      const loom = await Loom.open({ engine });
      const data = (await loom.user("u").create({ model: SMALL })).export();
      const bad = [
        [{ summarize: 7 }, "chat.options.summarize"],
        [{ summarize: { selct: { oldest: 0.3 } } }, "selct"],
        [{ summaryPresentation: "sideways" }, "chat.options.summaryPresentation"],
        [{ summarize: { presentation: "tool" } }, "presentation"],
        [{ summarize: true, summaries: true }, "summaries"],
      ] as const;
      for (const [options, named] of bad) {
        const error = await refusal(() =>
          loom.user("v").import({ ...data, chat: { ...data.chat, options: options as never } }),
        );
        expect(error.code, named).toBe("INVALID_ARGUMENT");
        expect(error.message).toContain(named);
      }
      expect(await loom.user("v").list()).toEqual([]);
      await loom.close();
    });
  });

  describe("what a chat keeps", () => {
    it("the Loom's presentation, copied at creation whatever the chat's own setting; presentation alone turns nothing on", async () => {
      const store = { ...memoryStore(), close: () => {} }; // the second Loom reads the same memory
      const loom = await Loom.open({ engine, store, summaries: { presentation: "tool" } });
      const cases: [CreateChatOptions["summaries"], unknown][] = [
        [undefined, { presentation: "tool" }],
        [true, { trigger: { fraction: 0.8 }, presentation: "tool" }],
        [false, { trigger: "manual", presentation: "tool" }],
        [{ select: { keepLast: 6 } }, { select: { keepLast: 6 }, presentation: "tool" }],
        [{ presentation: "system" }, { presentation: "system" }],
      ];
      const ids: string[] = [];
      for (const [summaries, kept] of cases) {
        const chat = await loom.user("u").create({ model: SMALL, ...(summaries === undefined ? {} : { summaries }) });
        expect(chat.export().chat.options?.summaries, JSON.stringify(summaries)).toEqual(kept);
        ids.push(chat.id);
      }
      await loom.close();
      // Reopened by a Loom with no summary settings: each chat as it was made.
      const again = await Loom.open({ engine, store });
      for (const [i, [summaries]] of cases.entries()) {
        const chat = await again.user("u").open(ids[i]!);
        await talk(chat, 60);
        const ctx = await chat.buildContext();
        const on = summaries === true || (typeof summaries === "object" && summaries.select !== undefined);
        expect(ctx.compressed, JSON.stringify(summaries)).toBe(on);
        if (on) expect(ctx.messages.some((m) => m.role === "tool")).toBe(true);
      }
      await again.close();
    });
  });

  describe("a bad summaries setting is refused with INVALID_ARGUMENT naming its key, and changes nothing", () => {
    // [setting, the key the message names]: each is bad at every level that takes its key.
    const everywhere: [unknown, string][] = [
      ["often", "summaries"],
      [null, "summaries"],
      [[true], "summaries"],
      [{ trigger: "auto" }, "trigger"],
      [{ trigger: { fraction: 0 } }, "trigger.fraction"],
      [{ trigger: { fraction: 0.5, tokens: 9 } }, "trigger"],
      [{ trigger: { tokens: 0 } }, "trigger.tokens"],
      [{ trigger: { percent: 50 } }, "percent"],
      [{ select: { oldest: 2 } }, "select.oldest"],
      [{ select: {} }, "select"],
      [{ select: { keepLast: -1 } }, "select.keepLast"],
      [{ select: "oldest" }, "select"],
      [{ maxTokens: 3 }, "maxTokens"],
      [{ timeoutMs: 0 }, "timeoutMs"],
      [{ timeoutMs: 1.5 }, "timeoutMs"],
      [{ policy: true }, "policy"],
      [{ summarize: true }, "summarize"],
      [{ triger: { fraction: 0.5 } }, "triger"],
    ];
    const withPresentation: [unknown, string][] = [[{ presentation: "user" }, "presentation"]];
    const loomOnly: [unknown, string][] = [
      [{ summarizer: "gpt" }, "summarizer"],
      [{ prompt: " " }, "prompt"],
    ];
    const misplaced: [unknown, string][] = [
      [{ summarizer: () => "x" }, "summarizer"],
      [{ prompt: "Be brief." }, "prompt"],
    ];

    it.each([...everywhere, ...withPresentation, ...loomOnly])(
      "Loom.open({ summaries: %j }) names %s",
      async (summaries, named) => {
        const store = memoryStore();
        const error = await refusal(() => Loom.open({ engine, store, summaries: summaries as never }));
        expect(error.code).toBe("INVALID_ARGUMENT");
        expect(error.message).toContain(named);
        expect(await store.listChats("u")).toEqual([]);
      },
    );

    const created = [...everywhere, ...withPresentation, ...misplaced];
    it.each(created)("create({ summaries: %j }) names %s and creates nothing", async (summaries, named) => {
      const loom = await Loom.open({ engine });
      const error = await refusal(() => loom.user("u").create({ summaries: summaries as never }));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message).toContain(named);
      expect(await loom.user("u").list()).toEqual([]);
      await loom.close();
    });

    it.each([...everywhere, ...misplaced, [{ presentation: "tool" }, "presentation"]])(
      "buildContext({ summaries: %j }) names %s and summarizes nothing",
      async (summaries, named) => {
        const loom = await Loom.open({ engine, summaries: true });
        const chat = await loom.user("u").create({ model: SMALL });
        await talk(chat, 60);
        const count = chat.messageCount;
        const error = await refusal(() => chat.buildContext({ summaries: summaries as never }));
        expect(error.code).toBe("INVALID_ARGUMENT");
        expect(error.message).toContain(named);
        expect(chat.messageCount).toBe(count);
        expect(summaryIds(chat)).toEqual([]);
        expect((await chat.buildContext()).compressed).toBe(true); // a good call summarizes
        await loom.close();
      },
    );
  });
});
