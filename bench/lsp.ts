/**
 * Language server latency (`npm run bench:lsp`): the time from an edit (`textDocument/didChange`) to its
 * diagnostics (`textDocument/publishDiagnostics`) on the customer-service sample (six `.graph` files),
 * after warm-up, over stdio as an editor sees it — without and with the TypeScript pass. The debounce is
 * set to 0 here so the number is the server's work; an editor waits `debounceMs` (default 150 ms) more.
 * Prints median, p90 and max; asserts nothing.
 *
 * On a shared machine the wall-clock figures mostly measure the other processes: the second table is the
 * CPU time (user + system) of the same work in-process (Workspace.diagnose, what the server runs per edit),
 * which the machine's load does not inflate.
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { TextDocument } from "vscode-languageserver-textdocument";
import { Workspace } from "../compiler/lsp/workspace.ts";
import { LspClient, REPO } from "../test/lsp/client.ts";

const FILE = "samples/customer-service/customer_service.graph";
const WARMUP = Number(process.env["WARMUP"] ?? 8);
const RUNS = Number(process.env["RUNS"] ?? 25);

async function measure(typecheck: boolean): Promise<number[]> {
  const client = await LspClient.start({ typecheck, debounceMs: 0 });
  const uri = await client.open(FILE);
  await client.waitForDiagnostics(uri);
  const variants = edits(client.text(uri));
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const next = client.waitForDiagnostics(uri);
    const t0 = performance.now();
    await client.change(uri, variants[(i + 1) % 2]!);
    const diags = await next;
    const ms = performance.now() - t0;
    if (diags.length > 0) throw new Error(`unexpected diagnostics: ${JSON.stringify(diags)}`);
    if (i >= WARMUP) times.push(ms);
  }
  await client.stop();
  return times.sort((a, b) => a - b);
}

/** a real edit every time: the TypeScript pass sees a changed draft (the timeout is in it) */
const edits = (base: string) => [base, base.replace("timeout 10s", "timeout 11s")];

async function cpuTime(typecheck: boolean): Promise<number[]> {
  const workspace = new Workspace({ typecheck });
  const uri = pathToFileURL(`${REPO}${FILE}`).href;
  const variants = edits(readFileSync(`${REPO}${FILE}`, "utf8"));
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    workspace.update(TextDocument.create(uri, "graph", i, variants[(i + 1) % 2]!));
    const before = process.cpuUsage();
    const { diagnostics } = await workspace.diagnose();
    const used = process.cpuUsage(before);
    if (diagnostics.length > 0) throw new Error(`unexpected diagnostics: ${JSON.stringify(diagnostics)}`);
    if (i >= WARMUP) times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b);
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
console.log(`time to diagnostics after an edit, ${FILE} (${RUNS} edits after ${WARMUP} warm-up edits; load average ${loadavg()[0]!.toFixed(1)})`);
console.log("| TypeScript pass | median | p90 | max |");
console.log("|---|---|---|---|");
const row = (typecheck: boolean, t: number[]) =>
  console.log(`| ${typecheck ? "with" : "without"} | ${pct(t, 50).toFixed(1)} ms | ${pct(t, 90).toFixed(1)} ms | ${t[t.length - 1]!.toFixed(1)} ms |`);
for (const typecheck of [false, true]) row(typecheck, await measure(typecheck));
console.log("\nCPU time of the same work in-process (Workspace.diagnose per edit)");
console.log("| TypeScript pass | median | p90 | max |");
console.log("|---|---|---|---|");
for (const typecheck of [false, true]) row(typecheck, await cpuTime(typecheck));
