// A browser for real: headless Chromium (Debian's chromium) loads a page served on localhost
// that runs the scenario, bundled from the installed package with the "browser" condition.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { installedPackage, sh, type InstalledPackage } from "../package/fixture.js";
import { bundle, type Bundle } from "./bundle.js";

const CHROMIUM = "/usr/bin/chromium";

let pkg: InstalledPackage;
let page: Bundle;
let server: Server | undefined;
let browser: BrowserContext | undefined;
const profile = mkdtempSync(join(tmpdir(), "ctxloom-chromium-"));

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it on a fresh machine)`);
  pkg = await installedPackage();
  page = await bundle(pkg.project, "browser-main.js", ["browser"]);
  const html = `<!doctype html><meta charset="utf-8"><title>ctxloom</title><script type="module" src="/main.js"></script>`;
  // Serves the page and its bundle only, on an ephemeral port of the loopback interface.
  server = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    // The same page under a CSP that does not allow WebAssembly ('wasm-unsafe-eval').
    else if (req.url === "/csp") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": "script-src 'self'" }).end(html);
    }
    else if (req.url === "/main.js") res.writeHead(200, { "content-type": "text/javascript" }).end(page.code);
    else res.writeHead(404).end();
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  // A fresh profile each run (playwright takes it as the persistent context's user-data-dir).
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    // Without the background-networking flags Chromium's own connections are refused on a closed network.
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
    timeout: 60_000,
  });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  rmSync(profile, { recursive: true, force: true });
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
    const out = (await tab.evaluate(() => (globalThis as unknown as { ctxloomResult: Promise<unknown> }).ctxloomResult)) as PageResult;
    expect(errors).toEqual([]);
    return out;
  } finally {
    await tab.close();
  }
}

describe("a browser (headless Chromium)", () => {
  test("the page runs the scenario on the WASM engine, and the browser is HeadlessChrome", async () => {
    expect(page.inputs).toContain("node_modules/ctxloom/dist/index.js");
    const out = await runPage("/");
    expect(out.userAgent).toContain("HeadlessChrome");
    expect(out.report.engine).toBe("wasm");
    const node = JSON.parse(await sh(process.execPath, ["node-main.js"], { cwd: pkg.project }));
    expect(out.report).toEqual(node.report);
  });

  test("under a CSP without 'wasm-unsafe-eval' the page still works, on the JS engine", async () => {
    const out = await runPage("/csp");
    expect(out.report.engine).toBe("js");
    const node = JSON.parse(await sh(process.execPath, ["node-main.js"], { cwd: pkg.project }));
    expect({ ...out.report, engine: "wasm" }).toEqual(node.report); // the JS engine, the same conversation
  });
});
