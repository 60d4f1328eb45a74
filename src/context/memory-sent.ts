// What a context says of the working memory it carries (the chat composes it: the context
// room takes its text as data, ContextSource.stored, and never reads the memory itself).

/** Which working memory a chat's contexts carry: the user's, the chat's own, or none. */
export type MemoryScope = "user" | "chat" | "none";

/**
 * The working memory a context carried (`ctx.memoryRevision`): which one, the revision read, and
 * how much of its text the memory share could not hold.
 */
export interface MemoryRevision {
  /** "user": the user's memory; "chat": the chat's own. */
  readonly scope: "user" | "chat";
  /** The memory's revision the context carried (0: a memory never written). */
  readonly revision: number;
  /**
   * Characters of the memory's text left out to fit the memory share (cut as `buildContext({ memory })`
   * is: its head kept, at a sentence or word where one fits); 0 when it was sent whole.
   */
  readonly omitted: number;
}
