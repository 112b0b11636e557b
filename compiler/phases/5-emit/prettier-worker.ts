/**
 * The prettier thread's side (prettier-thread.ts): format.ts's own functions, run here. Prefetched
 * statements are posted back one by one, as each is formatted, so the main thread has whatever is done
 * when it formats the final files.
 */
import { parentPort } from "node:worker_threads";
import { cacheKey } from "./format-cache.ts";
import { formatHere, formattedPieces, parseHere, statementChunks } from "./format.ts";
import type { Reply, Request } from "./prettier-thread.ts";

const port = parentPort!;
/** statements formatted here or known to be (the disk cache's keys, `known`) */
const done = new Set<string>();
let salt = "";
let known: ReadonlySet<string> = new Set();

port.on("message", (r: Request) => {
  void answer(r).then((reply) => port.postMessage(reply));
});

async function answer(r: Request): Promise<Reply> {
  try {
    if (r.op === "known") {
      salt = r.salt;
      known = new Set(r.keys);
      return { id: r.id };
    }
    if (r.op === "format") return { id: r.id, value: await formatHere(r.text) };
    if (r.op === "parse") return { id: r.id, value: await parseHere(r.text) };
    await prefetch(r.text);
    return { id: r.id };
  } catch (e) {
    return { id: r.id, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * A draft's statements, formatted as format.ts `formatRaw` would: one by one when at least half the text
 * is formatted already (a rebuild), else the whole text at once (one prettier call costs far less than
 * one per statement, cold), cut into its statements' output.
 */
async function prefetch(text: string): Promise<void> {
  const chunks = await statementChunks(text);
  if (!chunks) return;
  const todo = chunks.filter((c) => c.trim() !== "" && !done.has(c) && !known.has(cacheKey(salt, c)));
  if (todo.length === 0) return;
  const post = (raw: string, pretty: string) => {
    done.add(raw);
    port.postMessage({ id: -1, raw, pretty } satisfies Reply);
  };
  if (2 * todo.reduce((n, c) => n + c.length, 0) <= text.length) {
    for (const c of todo) post(c, await formatHere(c));
    return;
  }
  const pieces = await formattedPieces(await formatHere(text), chunks.length);
  if (pieces) chunks.forEach((c, i) => post(c, pieces[i]!));
}
