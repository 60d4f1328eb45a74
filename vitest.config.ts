import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // package.json maps "#ctxloom/fallback" into dist/ (workerd: no fallback); the tests run the sources.
  resolve: { alias: { "#ctxloom/fallback": fileURLToPath(new URL("./src/tokens/fallback.ts", import.meta.url)) } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
