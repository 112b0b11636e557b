/**
 * W4's cost per step as the messages history grows (`npx tsx bench/w4-growth.ts`; sizes with
 * `NS=50,200,800,3200`): the W4 workload built by the real compiler into bench/_tmp-w4/, then 300 ms of
 * invocations per size, three rounds; prints CPU µs per step (flat = the same at every size). Asserts
 * nothing. `npm run bench` prints the same figure at 50 / 200 / 800 within its W4 row. With `SAVER=memory`
 * (or `sqlite`) every invocation checkpoints each step into a MemorySaver (a SqliteSaver on a temporary
 * file), a thread per invocation, a saver per size and round: the cost per step of a long thread's
 * checkpoints.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { pathToFileURL } from "node:url";
import { buildFiles } from "../compiler/index.ts";
import { MemorySaver } from "../runtime/index.ts";

const BUILD = join(import.meta.dirname, "_tmp-w4");
rmSync(BUILD, { recursive: true, force: true });
mkdirSync(BUILD, { recursive: true });
cpSync(join(import.meta.dirname, "workloads"), BUILD, { recursive: true });
const built = await buildFiles([join(BUILD, "w4.graph")]);
for (const o of built.outputs) writeFileSync(o.path, o.text);
const { W4 } = (await import(pathToFileURL(join(BUILD, "w4.graph.ts")).href)) as {
  W4: { invoke(input: unknown, config?: unknown): Promise<unknown> };
};
const sizes = (process.env["NS"] ?? "50,200,800,3200").split(",").map(Number);
const dbDir = mkdtempSync(join(tmpdir(), "graphc-w4g-"));
let dbs = 0;
const savers: Record<string, () => MemorySaver | SqliteSaver> = {
  memory: () => new MemorySaver(),
  sqlite: () => new SqliteSaver(join(dbDir, `${dbs++}.db`)),
};
for (let round = 0; round < 3; round++) {
  const row: string[] = [];
  for (const n of sizes) {
    const saver = savers[process.env["SAVER"] ?? ""]?.();
    const t0 = process.cpuUsage();
    let k = 0;
    const end = performance.now() + 300;
    while (performance.now() < end) {
      const thread = saver && { checkpointer: saver, configurable: { thread_id: String(k) } };
      await W4.invoke({ limit: n }, { recursionLimit: 100_000, ...thread });
      k++;
    }
    const u = process.cpuUsage(t0);
    row.push(`${n}: ${((u.user + u.system) / k / n).toFixed(2)}`);
  }
  console.log(`W4 CPU µs/step  ${row.join("  ")}`);
}
rmSync(BUILD, { recursive: true, force: true });
rmSync(dbDir, { recursive: true, force: true });
