// The page: a list of chats, the chat's messages as they stream, "2 / 3" to switch between
// versions of a message, Regenerate, Edit, and a chat restored from the server on reload (?chat=id).
import { DefaultChatTransport, type UIMessage } from "ai";
import { VanillaChat } from "./chat.js";

interface Branch { index: number; count: number; ids: number[] }
interface Place { messageId: number; parentId: number | null; branch: Branch }
type Message = UIMessage<Place & { question?: Place }>;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const list = $<HTMLUListElement>("chats");
const more = $<HTMLButtonElement>("more");
const view = $<HTMLDivElement>("messages");
const status = $<HTMLDivElement>("status");
const input = $<HTMLInputElement>("input");

let chat: VanillaChat<Message>;
/** The user message being edited (its id), if any. */
let editing: string | undefined;

function open(id: string | undefined, messages: Message[] = []): void {
  chat = new VanillaChat<Message>({
    ...(id ? { id } : {}),
    messages,
    transport: new DefaultChatTransport({ api: "/api/chat" }),
    onChange: draw,
    onFinish: () => {
      history.replaceState(null, "", `/?chat=${encodeURIComponent(chat.id)}`);
      void loadList();
    },
  });
  draw();
}

function textOf(m: Message): string {
  return m.parts.map((p) => (p.type === "text" ? p.text : p.type === "dynamic-tool" || p.type.startsWith("tool-") ? `[${"toolName" in p ? p.toolName : p.type.slice(5)}]` : "")).join("");
}

function draw(): void {
  view.replaceChildren(
    ...chat.messages.map((m, i) => {
      const el = document.createElement("div");
      el.className = "message";
      el.dataset.role = m.role;
      el.dataset.id = m.id;
      el.textContent = textOf(m);
      // The user's message as sent has no metadata until a reload: its place comes with the answer.
      const next = chat.messages[i + 1];
      const b = (m.metadata ?? (m.role === "user" ? next?.metadata?.question : undefined))?.branch;
      if (b && b.count > 1) {
        const bar = document.createElement("div");
        bar.className = "branch";
        const step = (delta: number, label: string) => {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = label;
          button.className = delta < 0 ? "prev" : "next";
          button.disabled = b.index + delta < 0 || b.index + delta >= b.count;
          button.onclick = () => void switchTo(b.ids[b.index + delta]!);
          return button;
        };
        const label = document.createElement("span");
        label.className = "branch-label";
        label.textContent = ` ${b.index + 1} / ${b.count} `;
        bar.append(step(-1, "‹"), label, step(1, "›"));
        el.append(bar);
      }
      if (m.role === "user") {
        const edit = document.createElement("button");
        edit.type = "button";
        edit.className = "edit";
        edit.textContent = "Edit";
        edit.onclick = () => {
          editing = m.id;
          input.value = textOf(m);
          input.focus();
        };
        el.append(edit);
      }
      return el;
    }),
  );
  status.dataset.status = chat.status;
  status.textContent = chat.error ? `Error: ${chat.error.message}` : chat.status === "ready" ? "" : chat.status;
  for (const li of list.querySelectorAll("li")) li.classList.toggle("current", li.dataset.id === chat.id);
}

async function switchTo(messageId: number): Promise<void> {
  const response = await fetch(`/api/chats/${encodeURIComponent(chat.id)}/branch`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messageId }) });
  chat.messages = ((await response.json()) as { messages: Message[] }).messages;
}

async function openStored(id: string): Promise<void> {
  const response = await fetch(`/api/chats/${encodeURIComponent(id)}`);
  if (!response.ok) return open(undefined);
  open(id, ((await response.json()) as { messages: Message[] }).messages);
  history.replaceState(null, "", `/?chat=${encodeURIComponent(id)}`);
}

let cursor: string | null = null;
async function loadList(append = false): Promise<void> {
  const page = (await (await fetch(`/api/chats${append && cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`)).json()) as { chats: { id: string; title: string }[]; cursor: string | null };
  const items = page.chats.map((c) => {
    const li = document.createElement("li");
    li.dataset.id = c.id;
    li.textContent = c.title || "New chat";
    li.onclick = () => void openStored(c.id);
    return li;
  });
  if (append) list.append(...items);
  else list.replaceChildren(...items);
  cursor = page.cursor;
  more.hidden = cursor === null;
  draw();
}

$<HTMLFormElement>("composer").onsubmit = (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || chat.status === "streaming" || chat.status === "submitted") return;
  input.value = "";
  const messageId = editing;
  editing = undefined;
  void chat.sendMessage(messageId === undefined ? { text } : { text, messageId }); // an edit: a new version beside the old
};
$<HTMLButtonElement>("regenerate").onclick = () => void chat.regenerate();
$<HTMLButtonElement>("new-chat").onclick = () => {
  history.replaceState(null, "", "/");
  open(undefined);
};
more.onclick = () => void loadList(true);

const start = new URLSearchParams(location.search).get("chat");
if (start) await openStored(start);
else open(undefined);
await loadList();
(globalThis as { chatAppReady?: boolean }).chatAppReady = true;
