// The recall-locomo suite as `npm run bench` runs it; the code (and its command line) is bench/recall-locomo.ts.
export { runRecallLocomoSuite } from "./recall-locomo.js";
