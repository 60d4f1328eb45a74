// `node --import ./bench/ts-loader.mjs file.ts`: runs the bench's TypeScript (see ts-hooks.mjs).
import { register } from "node:module";

register("./ts-hooks.mjs", import.meta.url);
