/**
 * Parser benchmark: a generated graph with N nodes (default 5,000), each with a field list, options and
 * edges (chains, fan-out, conditions). Run: `npx tsx bench/parse.ts [nodes]`.
 */
import { parse } from "../grammar/index.ts";

export function bigGraph(n: number): string {
  const lines = ['import { work } from "./work"', "graph Big {", "  state {"];
  for (let i = 0; i < 20; i++) lines.push(`    f${i}: number = 0 reduce sum`);
  lines.push("  }");
  for (let i = 0; i < n; i++) {
    lines.push(
      `  node n${i}({ f${i % 20}, f${(i + 1) % 20} }) -> { f${(i + 2) % 20} } = work { timeout 10s, retry { attempts: 2 } }`,
    );
  }
  lines.push("  START -> n0");
  for (let i = 0; i + 1 < n; i++) {
    if (i % 10 === 0) lines.push(`  n${i} -> { f${i % 20} > ${i} && len(f1) != 0 => n${i + 1}, _ => END }`);
    else lines.push(`  n${i} -> n${i + 1}`);
  }
  lines.push(`  n${n - 1} -> END`, "}");
  return lines.join("\n") + "\n";
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const n = Number(process.argv[2] ?? 5000);
  const text = bigGraph(n);
  const t0 = performance.now();
  const first = parse(text, "big.graph");
  const t1 = performance.now();
  const runs = 5;
  for (let i = 0; i < runs; i++) parse(text, "big.graph");
  const t2 = performance.now();
  console.log(
    `parse ${n} nodes (${(text.length / 1024).toFixed(0)} KiB, ${first.diagnostics.length} diagnostics): ` +
      `first ${(t1 - t0).toFixed(0)} ms, then ${((t2 - t1) / runs).toFixed(0)} ms/parse`,
  );
}
