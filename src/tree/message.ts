// Re-export shim: the message base moved to src/message.ts. Kept only so that files of other
// rooms compile until they import ../message.js; remove at merge.
export * from "../message.js";
