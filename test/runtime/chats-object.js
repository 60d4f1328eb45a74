// A Durable Object per user holding that user's chats (ctxloom/cloudflare), which prunes its own
// with an alarm: once a day (PRUNE_EVERY_MS), the chats not written for 90 days (PRUNE_IDLE_MS) go,
// and those past the user's newest 500 (PRUNE_KEEP); the last prune's report is kept beside them.
import { DurableObject } from "cloudflare:workers";
import { Loom } from "ctxloom";
import { durableObjectStore } from "ctxloom/cloudflare";

const DAY = 86_400_000;

export class UserChats extends DurableObject {
  constructor(ctx, env) {
    super(ctx, env);
    this.loom = Loom.open({ store: durableObjectStore(ctx.storage) });
    this.every = Number(env.PRUNE_EVERY_MS ?? DAY);
    this.rule = { idleFor: Number(env.PRUNE_IDLE_MS ?? 90 * DAY), keepNewest: Number(env.PRUNE_KEEP ?? 500) };
  }

  async fetch(request) {
    const url = new URL(request.url);
    const chats = (await this.loom).user(url.searchParams.get("user"));
    if (request.method === "POST") {
      const { content } = await request.json();
      const chat = await chats.create({ title: content });
      await chat.append({ role: "user", content });
      // The first write schedules the prune; the alarm schedules the next one.
      if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + this.every);
    }
    const pruned = (await this.ctx.storage.get("lastPrune")) ?? null;
    return Response.json({ chats: (await chats.list()).map((c) => c.title), pruned, alarm: await this.ctx.storage.getAlarm() });
  }

  async alarm() {
    const { chats, messages } = await (await this.loom).prune(this.rule);
    await this.ctx.storage.put("lastPrune", { at: Date.now(), chats, messages });
    await this.ctx.storage.setAlarm(Date.now() + this.every);
  }
}

export default {
  async fetch(request, env) {
    const user = new URL(request.url).searchParams.get("user");
    return env.CHATS.get(env.CHATS.idFromName(user)).fetch(request);
  },
};
