import { importError } from "./types.js";

/** One top-level JSON value's text and where it was in the file. */
export interface Piece {
  text: string;
  /** "conversation 3" (an element of a top-level array) or "line 12" (a value of a JSON Lines file). */
  where: string;
}

enum C {
  Tab = 9,
  Newline = 10,
  Return = 13,
  Space = 32,
  Quote = 34,
  Comma = 44,
  Backslash = 92,
  OpenBracket = 91,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
  Bom = 0xfeff,
}
const isSpace = (c: number) => c === C.Space || c === C.Newline || c === C.Return || c === C.Tab || c === C.Bom;

/**
 * Splits a JSON document fed as string chunks into its top-level pieces without parsing it:
 * the elements of a top-level array (`[ {...}, {...} ]`), or else each top-level value (JSON
 * Lines, or one single object). Each piece is then parsed alone, so a 100 MB export never
 * becomes one object graph. It tracks strings, escapes and bracket nesting only; a bracket
 * that closes the wrong kind, a missing or extra comma, or a file that ends inside a value
 * throws IMPORT_FAILED naming the piece and the character offset.
 */
export class JsonSplitter {
  #mode: "start" | "array" | "values" | "closed" = "start";
  #stack: number[] = [];
  #inString = false;
  #escape = false;
  #inPiece = false;
  #scalar = false;
  /** In an array, after a piece: a comma or the closing bracket must come next. */
  #needComma = false;
  #parts: string[] = [];
  #count = 0;
  #line = 1;
  #pieceLine = 1;
  #offset = 0;

  /** Whether the document is a top-level array (known once its first character is read). */
  get isArray(): boolean | undefined {
    return this.#mode === "start" ? undefined : this.#mode === "array" || this.#mode === "closed";
  }

  /** Pieces completed by this chunk, in order. */
  feed(chunk: string): Piece[] {
    const out: Piece[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === C.Newline) this.#line++;
      if (this.#inString) {
        if (this.#escape) this.#escape = false;
        else if (c === C.Backslash) this.#escape = true;
        else if (c === C.Quote) {
          this.#inString = false;
          if (this.#scalar && this.#stack.length === this.#base) this.#end(out, chunk, start, i + 1);
        }
        continue;
      }
      if (this.#mode === "start") {
        if (isSpace(c)) continue;
        if (c === C.OpenBracket) {
          this.#mode = "array";
          this.#stack.push(c);
          continue;
        }
        this.#mode = "values";
      }
      if (!this.#inPiece) {
        if (isSpace(c)) continue;
        if (this.#mode === "closed") this.#fail(i, "text after the end of the top-level array");
        if (this.#mode === "array" && c === C.Comma) {
          if (!this.#needComma) this.#fail(i, "a comma where a conversation should be");
          this.#needComma = false;
          continue;
        }
        if (this.#mode === "array" && c === C.CloseBracket) {
          if (!this.#needComma && this.#count > 0) this.#fail(i, "a comma before the closing bracket");
          this.#stack.pop();
          this.#mode = "closed";
          continue;
        }
        if (c === C.Comma || c === C.CloseBracket || c === C.CloseBrace)
          this.#fail(i, `an unexpected ${String.fromCharCode(c)}`);
        if (this.#needComma) this.#fail(i, "a missing comma between conversations");
        this.#inPiece = true;
        this.#pieceLine = this.#line;
        start = i;
        this.#scalar = c !== C.OpenBrace && c !== C.OpenBracket;
        if (c === C.Quote) this.#inString = true;
        else if (!this.#scalar) this.#stack.push(c);
        continue;
      }
      if (c === C.Quote) {
        this.#inString = true;
      } else if (c === C.OpenBrace || c === C.OpenBracket) {
        this.#stack.push(c);
      } else if (c === C.CloseBrace || c === C.CloseBracket) {
        if (this.#stack.length === this.#base) {
          // Only a scalar piece can be open at the base: the array's bracket ends it.
          this.#end(out, chunk, start, i);
          i--;
          continue;
        }
        const open = this.#stack.pop()!;
        if ((open === C.OpenBrace) !== (c === C.CloseBrace))
          this.#fail(i, `a ${String.fromCharCode(c)} that closes a ${String.fromCharCode(open)}`);
        if (this.#stack.length === this.#base) this.#end(out, chunk, start, i + 1);
      } else if (this.#scalar && (c === C.Comma || isSpace(c))) {
        this.#end(out, chunk, start, i);
        i--;
        if (c === C.Newline) this.#line--;
      }
    }
    if (this.#inPiece) this.#parts.push(chunk.slice(start));
    this.#offset += chunk.length;
    return out;
  }

  /** The last piece, if the document ended on a bare value; throws when the document is cut short. */
  end(): Piece[] {
    const out: Piece[] = [];
    if (this.#inPiece && this.#scalar && !this.#inString) this.#end(out, "", 0, 0);
    if (this.#inPiece || this.#inString) {
      throw importError(this.#label(this.#count + 1, this.#pieceLine), "the file ends inside it (truncated JSON?)");
    }
    if (this.#mode === "array")
      throw importError("the file", "it ends before the top-level array's closing bracket (truncated JSON?)");
    if (this.#mode === "start") throw importError("the file", "it is empty");
    return out;
  }

  get #base(): number {
    return this.#mode === "array" ? 1 : 0;
  }

  #label(n: number, line: number): string {
    return this.#mode === "array" || this.#mode === "closed" ? `conversation ${n}` : `line ${line}`;
  }

  #end(out: Piece[], chunk: string, start: number, end: number): void {
    this.#parts.push(chunk.slice(start, end));
    const text = this.#parts.length === 1 ? this.#parts[0]! : this.#parts.join("");
    this.#parts = [];
    this.#inPiece = false;
    this.#count++;
    out.push({ text, where: this.#label(this.#count, this.#pieceLine) });
    if (this.#mode === "array") this.#needComma = true;
  }

  #fail(i: number, problem: string): never {
    const where = this.#inPiece || this.#mode === "array" ? this.#label(this.#count + 1, this.#line) : "the file";
    throw importError(where, `${problem} at character ${this.#offset + i + 1}`);
  }
}
