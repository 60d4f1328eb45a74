/** How a call run by `withDeadline` ended: its answer, or why it was given up. */
export type Deadline<T> = { ok: true; value: T } | { ok: false; why: "timeout" | "aborted"; reason: unknown };

/**
 * Runs a user's callback (a summarizer, an embedder) with an AbortSignal, and gives up on it
 * after `timeoutMs`, or as soon as `outer` aborts (a Loom closing): the signal aborts, and the
 * promise resolves at once whatever the callback does afterwards, so that no caller waits on
 * a promise that never settles. Rejects when the callback throws before that.
 */
export function withDeadline<T>(
  call: (signal: AbortSignal) => T | PromiseLike<T>,
  timeoutMs: number,
  outer?: AbortSignal,
): Promise<Deadline<T>> {
  const controller = new AbortController();
  return new Promise<Deadline<T>>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    };
    const stop = (why: "timeout" | "aborted", reason: unknown) => {
      done();
      controller.abort(reason);
      resolve({ ok: false, why, reason });
    };
    const onAbort = () => stop("aborted", outer!.reason);
    if (outer?.aborted) return stop("aborted", outer.reason);
    outer?.addEventListener("abort", onAbort, { once: true });
    timer = setTimeout(() => stop("timeout", new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    Promise.resolve()
      .then(() => call(controller.signal))
      .then(
        (value) => {
          done();
          resolve({ ok: true, value });
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
  });
}
