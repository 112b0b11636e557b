/**
 * Compile-time growth (part of `npm run bench:compile`; alone: `npx tsx bench/compile.ts --growth`): the
 * whole `compile()` (parse, bind, check, lower, emit with its formatting; no TypeScript pass, which needs
 * node functions on disk) on programs that grow in one dimension, and the time ratio per ×10 of size
 * (issue 8's target: at most ×12 for nodes and fields, linear — about ×10 — for unions and graph chains).
 * Times are process CPU time (the machine is shared: wall time measures waiting for a core), best of a few runs.
 */
import { compile } from "../compiler/compile.ts";
import { check } from "../compiler/check.ts";
import { memoryHost } from "../compiler/phases/2-bind/host.ts";

/** one graph with `n` state fields and a node reading them all */
export function generateFields(n: number): string {
  const fields = Array.from({ length: n }, (_, i) => `    f${i}: number = 0`).join("\n");
  return `import { step } from "./steps.ts"\ngraph Wide {\n  state {\n${fields}\n  }\n  node a(State) -> { f0, f1 } = step\n  START -> a -> END\n}\n`;
}

/** a field whose type is a union of `n` string literals */
export function generateUnion(n: number): string {
  const members = Array.from({ length: n }, (_, i) => `"v${i}"`).join(" | ");
  return `type U = ${members}\ngraph G {\n  state { x: U = "v0" }\n  START -> END\n}\n`;
}

/**
 * `n` graphs, each using the next as a subgraph, in chains of 50 (the language allows 64 levels; a chain
 * beyond that is the G5012 error, whose check is timed by `generateDeepChain`)
 */
export function generateGraphChain(n: number, segment = 50): string {
  return Array.from({ length: n }, (_, i) =>
    i % segment === segment - 1 || i + 1 === n
      ? `graph G${i} {\n  state { x: string }\n  START -> END\n}`
      : `graph G${i} {\n  state { x: string }\n  subgraph s = G${i + 1}\n  START -> s -> END\n}`,
  ).join("\n");
}

interface Case {
  readonly name: string;
  readonly sizes: readonly number[];
  readonly text: (n: number) => string;
  /** "compile": the whole compile(); "check": the front end only (the program does not compile) */
  readonly mode: "compile" | "check";
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function timeOnce(c: Case, n: number): Promise<number> {
  const host = memoryHost({ "big.graph": c.text(n), "steps.ts": "" });
  const t = cpuMs();
  if (c.mode === "check") check(["big.graph"], host);
  else {
    const r = await compile(["big.graph"], { host, typecheck: false });
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new Error(`${c.name} ${n}: ${errors[0]!.code} ${errors[0]!.message}`);
  }
  return cpuMs() - t;
}

export async function growth(generateGraph: (n: number) => string): Promise<void> {
  const cases: Case[] = [
    { name: "nodes", sizes: [1000, 10000], text: generateGraph, mode: "compile" },
    { name: "state fields", sizes: [1000, 8000, 32000], text: generateFields, mode: "compile" },
    { name: "union members", sizes: [4000, 40000], text: generateUnion, mode: "compile" },
    { name: "graph chain", sizes: [250, 2500], text: (n) => generateGraphChain(n), mode: "compile" },
    { name: "graph chain (front end)", sizes: [2500, 25000], text: (n) => generateGraphChain(n), mode: "check" },
    { name: "unbroken chain (G5012)", sizes: [2500, 25000], text: (n) => generateGraphChain(n, n), mode: "check" },
  ];
  await timeOnce(cases[0]!, 50); // warm-up: JIT and prettier's plugins
  console.log("\ncompile-time growth (CPU ms, best of runs; per ×10 = time ratio scaled to a ×10 size step)\n");
  console.log(`${"workload".padEnd(26)} ${"sizes".padStart(18)} ${"ms".padStart(22)} ${"per ×10".padStart(8)}`);
  for (const c of cases) {
    const times: number[] = [];
    for (const n of c.sizes) {
      const runs = n <= 4000 ? 3 : 1;
      let best = Infinity;
      for (let i = 0; i < runs; i++) best = Math.min(best, await timeOnce(c, n));
      times.push(best);
    }
    const first = c.sizes[0]!;
    const last = c.sizes[c.sizes.length - 1]!;
    const perTen = Math.pow(times[times.length - 1]! / times[0]!, 1 / Math.log10(last / first));
    console.log(
      `${c.name.padEnd(26)} ${c.sizes.map((s) => `${s / 1000}k`).join(" → ").padStart(18)} ${times.map((t) => t.toFixed(0)).join(" → ").padStart(22)} ${`×${perTen.toFixed(1)}`.padStart(8)}`,
    );
  }
}
