import type { Chat } from "../tree/chat.js";

/** Draws a chat's whole tree, one message a line, marking the head and the active branch. */
export function drawTree(chat: Chat, width = 60): string {
  const active = new Set(chat.path().map((m) => m.id));
  const lines: string[] = [];
  const visit = (id: number, prefix: string, last: boolean): void => {
    const m = chat.get(id);
    const text = m.content.replace(/\s+/g, " ");
    const clipped = text.length > width ? text.slice(0, width - 1) + "…" : text;
    const mark = id === chat.head ? "  <- head" : "";
    lines.push(`${prefix}${last ? "└─" : "├─"}${active.has(id) ? "*" : " "}#${id} ${m.role}: ${clipped}${mark}`);
    const kids = chat.children(id);
    kids.forEach((k, i) => visit(k, prefix + (last ? "  " : "│ "), i === kids.length - 1));
  };
  const roots = chat.roots();
  roots.forEach((r, i) => visit(r, "", i === roots.length - 1));
  return lines.join("\n");
}
