// "#ctxloom/fallback" under the workerd condition: no fallback (see fallback.ts).
import type { Encoding } from "./types.js";
import type { TokenCounter } from "./types.js";

export const loadFallback: ((encoding: Encoding, why: string) => Promise<TokenCounter>) | undefined = undefined;
