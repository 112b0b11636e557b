/**
 * Compile-speed benchmark (`npm run bench:compile`): generates valid graphs of 100 / 1,000 / 5,000 nodes
 * and times each phase — parse, bind, check, lower, emit (TypeScript text + prettier) — then prints a table
 * with the time per node and the growth ratio (per-node time at the largest size / at the smallest).
 * A ratio near 1 means linear growth; it asserts nothing. Sizes: `npx tsx bench/compile.ts 100 1000 5000`;
 * `--skip-emit` leaves out the emit phase. Then the compile-time growth table (bench/growth.ts); `--growth`
 * prints only that. Last, the build of a real project, cold and as a watch rebuild (bench/build-speed.ts).
 *
 * Each phase is timed as the best of several runs (fewer for big graphs) to keep out GC and machine noise.
 */
import { parse } from "../grammar/index.ts";
import { lex } from "../grammar/tokens.ts";
import { bind } from "../compiler/phases/2-bind/bind.ts";
import { memoryHost } from "../compiler/phases/2-bind/host.ts";
import { checkProgram } from "../compiler/phases/3-check/index.ts";
import { lower } from "../compiler/phases/4-lower/index.ts";
import { emitFile } from "../compiler/phases/5-emit/index.ts";
import { VERSION } from "../compiler/version.ts";
import { growth } from "./growth.ts";
import { buildSpeed } from "./build-speed.ts";

/**
 * One graph with `n` nodes over n/10 fields: a chain from START with a fan-out + waiting join every 20
 * nodes, an inline condition every 10, a router every 25, node options every 7 — all declared and valid.
 */
export function generateGraph(n: number): string {
  const fields = Math.max(5, Math.ceil(n / 10));
  const f = (i: number) => `f${i % fields}`;
  const lines = [
    `import { step, pick } from "./steps.ts"`,
    "",
    "graph Big {",
    "  state {",
  ];
  for (let i = 0; i < fields; i++)
    lines.push(`    f${i}: number = 0  reduce sum`);
  lines.push("    log: string[] = []  reduce append", "  }", "");
  for (let i = 0; i < n; i++) {
    const opts =
      i % 7 === 0
        ? " {\n    timeout 10s\n    retry { attempts: 2, backoff: 100ms }\n  }"
        : "";
    lines.push(
      `  node n${i}({ ${f(i)}, ${f(i + 1)} }) -> { ${f(i + 2)}, log } = step${opts}`,
    );
  }
  lines.push("", "  START -> n0");
  for (let i = 0; i + 1 < n; i++) {
    const next = `n${i + 1}`;
    if (i % 20 === 0 && i + 3 < n) {
      // fan out to the next two, join them into the third
      lines.push(
        `  n${i} -> [n${i + 1}, n${i + 2}]`,
        `  [n${i + 1}, n${i + 2}] -> n${i + 3}`,
      );
    } else if (i % 20 === 1 || i % 20 === 2) {
      continue; // edges come from the fan-out / join above
    } else if (i % 10 === 0) {
      lines.push(
        `  n${i} -> {`,
        `    ${f(i)} > ${i} && ${f(i + 1)} != 0 => ${next}`,
        `    _ => ${next}`,
        "  }",
      );
    } else if (i % 25 === 0) {
      lines.push(`  n${i} -> route(pick) { go: ${next}, stop: END }`);
    } else {
      lines.push(`  n${i} -> ${next}`);
    }
  }
  lines.push(`  n${n - 1} -> END`, "}", "");
  return lines.join("\n");
}

/** Best of `runs` timed calls, after one untimed call that lets the JIT warm up at this size. */
function best(runs: number, fn: () => void): number {
  fn();
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

async function bestAsync(
  runs: number,
  fn: () => Promise<unknown>,
): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

/**
 * `lex` is part of `parse`, shown on its own as a yardstick: the lexer is linear by construction, so the
 * growth of its per-node time is what the machine itself adds at larger sizes (caches, GC), not an algorithm.
 */
const PHASES = ["lex", "parse", "bind", "check", "lower", "emit"] as const;
type Phase = (typeof PHASES)[number];

/** `--skip-emit`: leave out the (slow) emit phase */
const skipEmit = process.argv.includes("--skip-emit");

async function measure(n: number): Promise<Record<Phase, number>> {
  const text = generateGraph(n);
  const file = "big.graph";
  const host = memoryHost({ [file]: text });
  const runs = n <= 1000 ? 7 : 3;
  const parsed = parse(text, file);
  const errors = parsed.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0)
    throw new Error(`generated graph has syntax errors: ${errors[0]!.message}`);
  const bound = bind([file], host, parse);
  const diags = [...bound.diagnostics, ...checkProgram(bound.program)].filter(
    (d) => d.severity === "error",
  );
  if (diags.length > 0)
    throw new Error(
      `generated graph does not check: ${diags[0]!.code} ${diags[0]!.message}`,
    );
  const ir = lower(bound.program).value;
  const fileIR = ir.files[0]!;
  const options = { version: VERSION, outPath: (p: string) => `${p}.ts` };
  // bind is timed with parsing taken out (it gets the already parsed AST), check on a fresh bind each run
  const parsedOnce = () => parsed;
  let check = Infinity;
  checkProgram(bind([file], host, parsedOnce).program);
  for (let i = 0; i < runs; i++) {
    const program = bind([file], host, parsedOnce).program;
    const t = performance.now();
    checkProgram(program);
    check = Math.min(check, performance.now() - t);
  }
  return {
    lex: best(runs, () => lex(text)),
    parse: best(runs, () => parse(text, file)),
    bind: best(runs, () => bind([file], host, parsedOnce)),
    check,
    lower: best(runs, () => lower(bound.program)),
    // emit formats the generated code with prettier: seconds per thousand nodes, so one run for big graphs
    emit: skipEmit
      ? NaN
      : await bestAsync(n <= 100 ? 3 : 1, () => emitFile(fileIR, ir, text, options)),
  };
}

async function main(): Promise<void> {
  if (process.argv.includes("--growth")) return growth(generateGraph);
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((x) => x > 0);
  const ns = sizes.length > 0 ? sizes : [100, 1000, 5000];
  const results: { n: number; t: Record<Phase, number> }[] = [];
  // warm up the JIT and prettier (its first call loads plugins) so the smallest size is not penalised
  await measure(50);
  for (const n of ns) {
    results.push({ n, t: await measure(n) });
  }

  const pad = (s: string, w: number) => s.padStart(w);
  // lex is inside parse: the total leaves it out
  const sum = (t: Record<Phase, number>) =>
    PHASES.reduce((a, p) => a + (p === "lex" || Number.isNaN(t[p]) ? 0 : t[p]), 0);
  const cell = (x: number, n: number) =>
    pad(Number.isNaN(x) ? "-" : `${x.toFixed(1)} (${((x * 1000) / n).toFixed(0)}µs)`, 16);
  console.log(`graphc ${VERSION} compile speed (best of several runs; ms, and µs per node)\n`);
  console.log(`${pad("nodes", 7)} ${PHASES.map((p) => pad(p, 16)).join(" ")} ${pad("total", 16)}`);
  for (const { n, t } of results) {
    console.log(`${pad(String(n), 7)} ${PHASES.map((p) => cell(t[p], n)).join(" ")} ${cell(sum(t), n)}`);
  }
  // per-node time of the largest size over a smaller one: 1.0 is linear growth, 2.0 at 50x the size
  // would already be clearly worse than linear
  const last = results[results.length - 1]!;
  for (const base of results.slice(0, -1)) {
    const ratio = (a: number, b: number) => pad((a / last.n / (b / base.n)).toFixed(2), 16);
    console.log(`\ngrowth: per-node time at ${last.n} nodes / at ${base.n} nodes (1.00 = linear)`);
    console.log(`${pad("", 7)} ${PHASES.map((p) => ratio(last.t[p], base.t[p])).join(" ")} ${ratio(sum(last.t), sum(base.t))}`);
  }
  await growth(generateGraph);
  buildSpeed();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
