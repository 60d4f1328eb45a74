import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // package.json maps "#ctxloom/fallback" and "#ctxloom/bpe-file" into dist/ by runtime (workerd: no
  // fallback, no file); the tests run the sources, on Node.
  resolve: {
    alias: {
      "#ctxloom/fallback": fileURLToPath(new URL("./src/tokens/fallback.ts", import.meta.url)),
      "#ctxloom/bpe-file": fileURLToPath(new URL("./src/tokens/bpe-file-node.ts", import.meta.url)),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // Vitest's default is one worker fewer than the cores: on a 2-core machine a single one, idle
    // while a file waits on its child processes (the bench smoke, the runtimes, the CLI). Two
    // overlap that waiting with the next file's work.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
