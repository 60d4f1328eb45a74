// ctxloom/sqlite on Deno, from the installed package, with no permissions: what sqliteStore()
// throws through the entry Deno resolves (the "deno" export condition) and through the Node
// entry imported by its path. Prints JSON.
if (typeof Deno === "undefined") throw new Error("not running on Deno");

async function attempt(specifier) {
  try {
    const { sqliteStore } = await import(specifier);
    sqliteStore("./chats.db");
    return { outcome: "no error" };
  } catch (e) {
    return { name: e?.name, code: e?.code, message: String(e?.message) };
  }
}

console.log(JSON.stringify({
  resolved: import.meta.resolve("ctxloom/sqlite"),
  entry: await attempt("ctxloom/sqlite"),
  nodeEntry: await attempt("./node_modules/ctxloom/dist/sqlite.js"),
}));
