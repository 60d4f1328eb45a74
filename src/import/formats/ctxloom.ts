// ctxloom's own portable format (what `ctxloom export` and `chat.export()` write): already a
// ChatExport, so it is checked for shape and taken as it is, ids and all.
import { PRIORITIES, ROLES } from "../../message.js";
import { EXPORT_VERSION, type ChatExport } from "../../store/portable.js";
import { asRecord, importError, str, type BuiltChat, type FormatReader } from "../types.js";

export const isCtxloom = (r: Record<string, unknown>) => r.format === "ctxloom.chat";

export function ctxloomReader(): FormatReader {
  return { add: (record, where) => [readExport(record, where)], finish: () => [] };
}

const isTime = (v: unknown) => typeof v === "number" && Number.isFinite(v) && v >= 0;

function readExport(record: unknown, where: string): BuiltChat {
  const exp = asRecord(record);
  if (exp?.format !== "ctxloom.chat") throw importError(where, 'a ctxloom chat has format "ctxloom.chat"');
  const version = exp.version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1 || version > EXPORT_VERSION) {
    throw importError(
      where,
      `its version ${JSON.stringify(version)} is not one this release reads (1 to ${EXPORT_VERSION})`,
    );
  }
  const chat = asRecord(exp.chat);
  if (
    !chat ||
    typeof chat.title !== "string" ||
    !str(chat.model) ||
    !(chat.system === null || typeof chat.system === "string") ||
    !isTime(chat.createdAt) ||
    !isTime(chat.updatedAt)
  ) {
    throw importError(where, "its chat needs { title, model, system (a string or null), createdAt, updatedAt }");
  }
  if (!Array.isArray(exp.messages)) throw importError(where, "its messages must be an array");
  const hasChild = new Uint8Array(exp.messages.length);
  exp.messages.forEach((value: unknown, i) => {
    const at = `${where}, message ${i}`;
    const m = asRecord(value);
    if (!m || m.id !== i) throw importError(at, `its id must be ${i} (ids count 0..n-1 in order)`);
    const p = m.parentId;
    if (p !== null && !(typeof p === "number" && Number.isInteger(p) && p >= 0 && p < i)) {
      throw importError(at, `its parentId ${JSON.stringify(p)} must be null or the id of an earlier message`);
    }
    if (typeof p === "number") hasChild[p] = 1;
    if (!ROLES.includes(m.role as never))
      throw importError(at, `its role ${JSON.stringify(m.role)} is none of ${ROLES.join(", ")}`);
    if (!PRIORITIES.includes(m.priority as never))
      throw importError(at, `its priority ${JSON.stringify(m.priority)} is none of ${PRIORITIES.join(", ")}`);
    if (typeof m.content !== "string") throw importError(at, "its content must be a string");
    if (!isTime(m.createdAt)) throw importError(at, "its createdAt must be milliseconds since the epoch");
    if (m.kind !== "message" && m.kind !== "summary")
      throw importError(at, `its kind ${JSON.stringify(m.kind)} is neither message nor summary`);
  });
  const head = exp.head;
  if (
    head !== null &&
    !(typeof head === "number" && Number.isInteger(head) && head >= 0 && head < exp.messages.length)
  ) {
    throw importError(where, `its head ${JSON.stringify(head)} must be null or a message id`);
  }
  const ids: Record<string, number> = {};
  for (let i = 0; i < exp.messages.length; i++) ids[String(i)] = i;
  return {
    built: true,
    chat: exp as unknown as ChatExport,
    report: {
      where,
      sourceId: str(chat.id),
      title: chat.title,
      sourceModel: chat.model as string,
      messages: exp.messages.length,
      leaves: hasChild.reduce((s, h) => s + (h ? 0 : 1), 0),
      ids,
      skipped: {},
      placeholders: {},
      toolResultsAsUser: 0,
    },
  };
}
