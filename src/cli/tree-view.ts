import type { Chat } from "../chat/chat.js";

/**
 * Draws a chat's whole tree, one message a line: `*` marks the active branch and `<- head`
 * the head. A run of single replies stays in one column; only a branch point indents its
 * replies, so a long linear chat stays narrow. Iterative: any depth draws.
 */
export function drawTree(chat: Chat, width = 60): string {
  const active = new Set(chat.path().map((m) => m.id));
  const lines: string[] = [];
  const glyphs = (ids: number[]) =>
    ids.map((id, i): [number, string] => [id, ids.length === 1 ? "" : i === ids.length - 1 ? "└─" : "├─"]);
  // Each entry: a message, the indent of its line, and its branch glyph ("" inside a run).
  const stack: [number, string, string][] = glyphs(chat.roots())
    .reverse()
    .map(([id, g]) => [id, "", g]);
  while (stack.length > 0) {
    const [id, indent, glyph] = stack.pop()!;
    const m = chat.get(id);
    const text =
      m.content.replace(/\s+/g, " ") || (m.toolCalls ?? []).map((c) => `[call ${c.function.name}]`).join(" ");
    const clipped = text.length > width ? text.slice(0, width - 1) + "…" : text;
    const mark = id === chat.head ? "  <- head" : "";
    lines.push(`${indent}${glyph}${active.has(id) ? "*" : " "}#${id} ${m.role}: ${clipped}${mark}`);
    const inner = indent + (glyph === "├─" ? "│ " : glyph === "└─" ? "  " : "");
    for (const [k, g] of glyphs(chat.children(id)).reverse()) stack.push([k, inner, g]);
  }
  return lines.join("\n");
}
