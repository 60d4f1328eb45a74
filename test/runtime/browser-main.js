// Runs the scenario in the page (bundled with the "browser" export condition); the test reads
// the promise back through the page.
import { scenario } from "./scenario.js";

globalThis.ctxloomResult = scenario().then((report) => ({ userAgent: navigator.userAgent, report }));
