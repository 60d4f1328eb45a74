// The collector's work over a stretch of a bench, from v8's own record (v8.GCProfiler): each
// collection's kind and duration, kept in C++ until stop(), so nothing lands on the heap
// meanwhile. A PerformanceObserver on 'gc' entries misses collections when the measured loop
// never returns to the event loop (all of an in-memory Loom's awaits are microtasks).
import { GCProfiler } from "node:v8";

export interface Collections {
  /** Each collection's duration in ms, in order. */
  durations: number[];
  /** How many were full (mark-compact) collections. */
  major: number;
}

/** Starts recording; `stop()` returns what the collector did since. */
export function watchGc(): { stop(): Collections } {
  const profiler = new GCProfiler();
  profiler.start();
  return {
    stop() {
      const stats = profiler.stop()?.statistics ?? [];
      return {
        durations: stats.map((s) => s.cost / 1000),
        major: stats.filter((s) => s.gcType !== "Scavenge" && s.gcType !== "MinorMarkSweep").length,
      };
    },
  };
}
