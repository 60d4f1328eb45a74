// A browser for real: headless Chromium loads a page served on localhost that runs the
// scenario, bundled from the installed package with the "browser" condition. The browser is
// the one `npm ci` brings, else Debian's (chromium-find.ts). With neither, the test skips and
// says how to enable it.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { join } from "node:path";
import { installedPackage, repoRoot, sh, type InstalledPackage } from "../package/fixture.js";
import { bundle, type Bundle } from "./bundle.js";
import { findChromium } from "./chromium-find.js";

const found = await findChromium();
if ("why" in found) {
  console.warn(
    `chromium.test.ts: skipped, no browser: ${found.why}. Enable it with: sudo apt-get install -y chromium (.ci/run does it).`,
  );
}

let pkg: InstalledPackage;
let page: Bundle;
/** The same page in an app that installed gpt-tokenizer, the optional peer that counts where WebAssembly cannot run. */
let pageWithPeer: Bundle;
let server: Server | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if ("why" in found) return;
  pkg = await installedPackage();
  page = await bundle(pkg.project, "browser-main.js", ["browser"]);
  pageWithPeer = await bundle(pkg.project, "browser-main.js", ["browser"], [join(repoRoot, "node_modules")]);
  const html = (script: string) =>
    `<!doctype html><meta charset="utf-8"><title>ctxloom</title><script type="module" src="${script}"></script>`;
  // The exact counter's module, which the bundle fetches from beside itself (a bundler that follows new URL(..., import.meta.url) ships it).
  const bpe = readFileSync(join(pkg.packageDir, "dist/ctxloom-bpe.wasm"));
  // Serves the page and its bundle only, on an ephemeral port of the loopback interface.
  server = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html("/main.js"));
    // The page under a CSP that does not allow WebAssembly ('wasm-unsafe-eval'), in the app with the fallback counter.
    else if (req.url === "/csp") {
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": "script-src 'self'" })
        .end(html("/main-peer.js"));
    } else if (req.url === "/main.js") res.writeHead(200, { "content-type": "text/javascript" }).end(page.code);
    else if (req.url === "/main-peer.js")
      res.writeHead(200, { "content-type": "text/javascript" }).end(pageWithPeer.code);
    else if (req.url === "/ctxloom-bpe.wasm") res.writeHead(200, { "content-type": "application/wasm" }).end(bpe);
    else res.writeHead(404).end();
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  browser = await chromium.launch({
    executablePath: found.executablePath,
    args: found.args,
    headless: true,
    timeout: 60_000,
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

interface PageResult {
  userAgent: string;
  report: { engine: string };
}

/** Loads a page of the server and returns what the scenario reported there. */
async function runPage(path: string): Promise<PageResult> {
  const tab = await browser!.newPage();
  try {
    const errors: string[] = [];
    tab.on("pageerror", (e) => errors.push(String(e)));
    const { port } = server!.address() as AddressInfo;
    await tab.goto(`http://127.0.0.1:${port}${path}`, { timeout: 30_000 });
    await tab.waitForFunction(() => "ctxloomResult" in globalThis, undefined, { timeout: 30_000 });
    const out = (await tab.evaluate(
      () => (globalThis as unknown as { ctxloomResult: Promise<unknown> }).ctxloomResult,
    )) as PageResult;
    expect(errors).toEqual([]);
    return out;
  } finally {
    await tab.close();
  }
}

describe.skipIf("why" in found)("a browser (headless Chromium)", () => {
  test("the page runs the scenario on the WASM engine, and the browser is HeadlessChrome", async () => {
    expect(page.inputs).toContain("node_modules/ctxloom/dist/index.js");
    const out = await runPage("/");
    expect(out.userAgent).toContain("HeadlessChrome");
    expect(out.report.engine).toBe("wasm");
    const node = JSON.parse(await sh(process.execPath, ["node-main.js"], { cwd: pkg.project }));
    expect(out.report).toEqual(node.report);
  });

  test("under a CSP without 'wasm-unsafe-eval' the page still works, on the JS engine (gpt-tokenizer installed: it counts)", async () => {
    const out = await runPage("/csp");
    expect(out.report.engine).toBe("js");
    const node = JSON.parse(await sh(process.execPath, ["node-main.js"], { cwd: pkg.project }));
    expect({ ...out.report, engine: "wasm" }).toEqual(node.report); // the JS engine, the same conversation
  });
});
