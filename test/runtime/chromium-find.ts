// The headless Chromium the browser tests launch: the one `npm ci` brings (@sparticuz/chromium
// ships a binary inside its npm package, unpacked to the temp folder on first use); where it
// cannot start, Debian's /usr/bin/chromium (.ci/run installs it). With neither, a reason to print.
import { existsSync } from "node:fs";
import sparticuz from "@sparticuz/chromium";
import { chromium } from "playwright-core";

const DEBIAN = "/usr/bin/chromium";
// Without the background-networking flags Chromium's own connections are refused on a closed network.
const QUIET = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const DROP = ["--single-process", "--disable-web-security", "--allow-running-insecure-content"];

/** The browser to launch: the npm package's Chromium if it unpacks and starts here, else Debian's; the reason with neither. */
export async function findChromium(): Promise<
  { executablePath: string; args: string[]; source: string } | { why: string }
> {
  const reasons: string[] = [];
  try {
    const executablePath = await sparticuz.executablePath();
    // Its Lambda-oriented flags minus three: --single-process (closing a tab would end the
    // browser) and the two that relax web security (the CSP test needs a normal page).
    const args = [...sparticuz.args.filter((a) => !DROP.includes(a)), ...QUIET];
    // Started once here, so a binary that unpacks but cannot run on this system falls back.
    const probe = await chromium.launch({ executablePath, args, headless: true, timeout: 60_000 });
    await probe.close();
    return { executablePath, args, source: "@sparticuz/chromium" };
  } catch (e) {
    reasons.push(`@sparticuz/chromium did not start (${String((e as Error).message ?? e).split("\n")[0]})`);
  }
  if (existsSync(DEBIAN)) return { executablePath: DEBIAN, args: ["--no-sandbox", ...QUIET], source: DEBIAN };
  reasons.push(`${DEBIAN} is absent`);
  return { why: reasons.join("; ") };
}
