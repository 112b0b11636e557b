/**
 * Build speed of a real project (`npm run bench:compile` ends with it; alone: `npx tsx bench/build-speed.ts`):
 * samples/customer-service (six `.graph` files, TypeScript pass included), copied to bench/_tmp-build-speed/.
 *
 * - cold: a fresh `node` process per run that builds the six files — the whole process (module loading
 *   included, its CPU time read by a preloaded module as it exits) for `graphc build` from dist/ when
 *   `npm run build` has been run (bin/graphc.mjs), and, in a
 *   process that loads the compiler through tsx, the first `buildFiles` call alone. `graphc build` keeps
 *   prettier's output in node_modules/.cache/graphc (format-cache.ts): timed with that cache empty, with
 *   it holding the last build's output (nothing changed since), and after a one-line edit since;
 * - watch rebuild: in that process, after the first build, a one-line edit of customer_service.graph (a
 *   default value) and the rebuild `graphc build --watch` does (its entry file, with every file it loads),
 *   several times; the median.
 *
 * Times are wall and CPU (user + system) milliseconds; on a loaded machine CPU time is the steadier one.
 * CPU time includes the process's live child processes (the native TypeScript binary the TypeScript pass
 * talks to, ts-native-api.ts), read from /proc on Linux (elsewhere: the process alone). Asserts nothing.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const TMP = join(import.meta.dirname, "_tmp-build-speed");
const APP = join(TMP, "samples", "customer-service");
const FILES = ["customer_service", "reception", "query", "decision", "execution", "domain"].map((f) => join(APP, `${f}.graph`));
const EDITED = FILES[0]!;
const RUNS = Number(process.env["BENCH_BUILD_RUNS"] ?? 5);

interface Times {
  wall: number;
  cpu: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

function setup(): void {
  rmSync(TMP, { recursive: true, force: true });
  mkdirSync(join(TMP, "samples"), { recursive: true });
  for (const dir of ["customer-service", "shared"]) cpSync(join(ROOT, "samples", dir), join(TMP, "samples", dir), { recursive: true });
}

/**
 * CPU milliseconds of this process's live children (Linux /proc; 0 elsewhere): the native TypeScript
 * binary runs beside the compiler, and Node's own counters do not see it. Also inlined in CPU_AT_EXIT.
 */
function childrenCpu(): number {
  let ms = 0;
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      for (const pid of readFileSync(`/proc/self/task/${tid}/children`, "utf8").split(" ").filter(Boolean)) {
        const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        ms += (Number(f[11]) + Number(f[12])) * 10; // utime + stime, in ticks of 10 ms (USER_HZ 100)
      }
    }
  } catch {
    // not Linux, or a child that just ended
  }
  return ms;
}

/** The child: times loading the compiler, the first build and the watch rebuilds; prints JSON. */
async function child(): Promise<void> {
  const clock = (): Times => {
    const u = process.cpuUsage();
    return { wall: performance.now(), cpu: (u.user + u.system) / 1000 + childrenCpu() };
  };
  const since = (a: Times): Times => {
    const b = clock();
    return { wall: b.wall - a.wall, cpu: b.cpu - a.cpu };
  };
  const t0 = clock();
  const { buildFiles } = await import("../compiler/index.ts");
  const load = since(t0);
  const build = async (files: readonly string[]) => {
    const r = await buildFiles(files, { cwd: ROOT, formatCache: true });
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) throw new Error(`${errors[0]!.code} ${errors[0]!.message}`);
    for (const o of r.outputs) writeFileSync(o.path, o.text);
  };
  const t1 = clock();
  await build(FILES);
  const first = since(t1);
  const source = readFileSync(EDITED, "utf8");
  const rebuilds: Times[] = [];
  for (let i = 0; i < RUNS; i++) {
    writeFileSync(EDITED, source.replace("refundLimit: number  = 500", `refundLimit: number  = ${501 + i}`));
    const t = clock();
    await build([EDITED]);
    rebuilds.push(since(t));
  }
  writeFileSync(EDITED, source);
  console.log(JSON.stringify({ load, first, rebuilds }));
}

/**
 * preloaded into the `graphc build` process: prints its CPU time (every thread, GC included) as it exits,
 * with its live children's (`childrenCpu`; the exit handlers that end them run after this one)
 */
const CPU_AT_EXIT = `data:text/javascript,${encodeURIComponent(
  `import { readdirSync, readFileSync } from "node:fs"; ${childrenCpu.toString()}
  process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("graphc-cpu " + ((u.user + u.system) / 1000 + childrenCpu()) + "\\n"); });`,
)}`;

/** the disk cache of prettier's output `graphc build` keeps (format-cache.ts) */
const FORMAT_CACHE = join(ROOT, "node_modules", ".cache", "graphc");

/** one `graphc build` of the six files from dist/, in a fresh process */
function cliBuild(): Times {
  const t = performance.now();
  const r = spawnSync(process.execPath, ["--import", CPU_AT_EXIT, join(ROOT, "bin", "graphc.mjs"), "build", ...FILES], { cwd: ROOT, encoding: "utf8" });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`graphc build failed: ${r.stderr}`);
  return { wall, cpu: Number(/graphc-cpu (\S+)/.exec(r.stderr)?.[1]) };
}

export function buildSpeed(): void {
  setup();
  const dist = join(ROOT, "dist", "compiler", "cli", "main.js");
  const cli = { empty: [] as Times[], unchanged: [] as Times[], edited: [] as Times[] };
  if (existsSync(dist)) {
    const source = readFileSync(EDITED, "utf8");
    for (let i = 0; i < RUNS; i++) {
      rmSync(FORMAT_CACHE, { recursive: true, force: true });
      cli.empty.push(cliBuild());
      cli.unchanged.push(cliBuild());
      writeFileSync(EDITED, source.replace("refundLimit: number  = 500", `refundLimit: number  = ${501 + i}`));
      cli.edited.push(cliBuild());
      writeFileSync(EDITED, source);
    }
  }
  const runs = [];
  for (let i = 0; i < Math.max(1, Math.min(RUNS, 3)); i++) {
    rmSync(FORMAT_CACHE, { recursive: true, force: true });
    const out = execFileSync(process.execPath, ["--import", "tsx", import.meta.filename, "--child"], { cwd: ROOT, encoding: "utf8" });
    runs.push(JSON.parse(out.trim().split("\n").at(-1)!) as { load: Times; first: Times; rebuilds: Times[] });
  }
  const ms = (x: number) => (Number.isNaN(x) ? "-" : `${x.toFixed(0)} ms`);
  const row = (label: string, xs: readonly Times[], target: string) =>
    console.log(`${label.padEnd(58)} ${ms(median(xs.map((x) => x.wall))).padStart(9)} ${ms(median(xs.map((x) => x.cpu))).padStart(9)}   ${target}`);
  console.log(`\nbuild speed: samples/customer-service, 6 files, TypeScript pass included (median; ${RUNS} runs)\n`);
  console.log(`${"".padEnd(58)} ${"wall".padStart(9)} ${"CPU".padStart(9)}   target`);
  if (cli.empty.length > 0) {
    row("`graphc build` (dist), fresh process, format cache empty", cli.empty, "< 1500 ms");
    row("  same, nothing changed since the last build", cli.unchanged, "");
    row("  same, a one-line edit since the last build", cli.edited, "");
  }
  else console.log("(no dist/: `npm run build` first to time the published `graphc build` command)");
  row("fresh process: loading the compiler (tsx)", runs.map((r) => r.load), "");
  row("fresh process: first buildFiles", runs.map((r) => r.first), "");
  row("watch rebuild after a one-line edit (customer_service.graph)", runs.flatMap((r) => r.rebuilds), "< 200 ms");
  rmSync(TMP, { recursive: true, force: true });
}

if (process.argv.includes("--child")) await child();
else if (import.meta.url === `file://${process.argv[1]}`) buildSpeed();
