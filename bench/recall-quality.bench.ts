// The recall-quality suite as `npm run bench` runs it; the code (and its command line) is bench/recall-quality.ts.
export { runRecallQualitySuite } from "./recall-quality.js";
