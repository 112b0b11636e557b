/**
 * `npx tsx bench/build-ab.ts <other-tree> [rounds]`: `graphc build` of samples/customer-service from dist/
 * (`npm run build` in both trees first), this tree against another checkout of itself (e.g. `git worktree
 * add /tmp/before <commit>` with node_modules hard-linked), interleaved: each round builds, per tree (the
 * order alternating), with the format cache empty, then with nothing changed, then after a one-line edit —
 * the three cold rows of bench/build-speed.ts. Each tree builds its own copy of the sample (in its
 * `bench/_tmp-build-ab/`) with its own cache. Prints per row and tree the median CPU (the process, every
 * thread, plus its live children: the native TypeScript binary) and wall milliseconds. Asserts nothing.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const trees = { this: resolve(import.meta.dirname, ".."), other: resolve(process.argv[2] ?? "") };
const ROUNDS = Number(process.argv[3] ?? 5);
const FILES = ["customer_service", "reception", "query", "decision", "execution", "domain"];
const ROWS = ["cache empty", "nothing changed", "one-line edit"] as const;

/** preloaded: prints CPU (this process and its live children, /proc on Linux) and wall since start, as it exits */
const AT_EXIT = `data:text/javascript,${encodeURIComponent(`import { readdirSync, readFileSync } from "node:fs";
process.on("exit", () => {
  let ms = 0;
  try {
    for (const tid of readdirSync("/proc/self/task"))
      for (const pid of readFileSync("/proc/self/task/" + tid + "/children", "utf8").split(" ").filter(Boolean)) {
        const f = readFileSync("/proc/" + pid + "/stat", "utf8").split(") ")[1].split(" ");
        ms += (Number(f[11]) + Number(f[12])) * 10;
      }
  } catch {}
  const u = process.cpuUsage();
  process.stderr.write("graphc-times " + ((u.user + u.system) / 1000 + ms) + " " + performance.now() + "\\n");
});`)}`;

function build(tree: string, app: string): { cpu: number; wall: number } {
  const args = ["--import", AT_EXIT, join(tree, "bin", "graphc.mjs"), "build", ...FILES.map((f) => join(app, `${f}.graph`))];
  const r = spawnSync(process.execPath, args, { cwd: tree, encoding: "utf8" });
  // the last line: a worker thread inherits the preload and prints its own as it ends
  const m = [...r.stderr.matchAll(/graphc-times (\S+) (\S+)/g)].at(-1);
  if (r.status !== 0 || !m) throw new Error(`graphc build failed in ${tree}: ${r.stderr}`);
  return { cpu: Number(m[1]), wall: Number(m[2]) };
}

const times = new Map<string, { cpu: number; wall: number }[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 === 0 ? (["other", "this"] as const) : (["this", "other"] as const)) {
    const tree = trees[side];
    const tmp = join(tree, "bench", "_tmp-build-ab");
    const app = join(tmp, "samples", "customer-service");
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(join(tmp, "samples"), { recursive: true });
    for (const dir of ["customer-service", "shared"]) cpSync(join(tree, "samples", dir), join(tmp, "samples", dir), { recursive: true });
    rmSync(join(tree, "node_modules", ".cache", "graphc"), { recursive: true, force: true });
    const row = (r: (typeof ROWS)[number]) => times.get(`${r}\u0000${side}`) ?? times.set(`${r}\u0000${side}`, []).get(`${r}\u0000${side}`)!;
    row("cache empty").push(build(tree, app));
    row("nothing changed").push(build(tree, app));
    const edited = join(app, "customer_service.graph");
    writeFileSync(edited, readFileSync(edited, "utf8").replace("refundLimit: number  = 500", `refundLimit: number  = ${501 + round}`));
    row("one-line edit").push(build(tree, app));
    rmSync(tmp, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`graphc build, samples/customer-service, ${ROUNDS} interleaved rounds (median ms; this tree vs ${trees.other})`);
for (const r of ROWS) {
  for (const side of ["other", "this"] as const) {
    const xs = times.get(`${r}\u0000${side}`)!;
    console.log(`${r.padEnd(16)} ${side.padEnd(6)} CPU ${median(xs.map((x) => x.cpu)).toFixed(0).padStart(6)}  wall ${median(xs.map((x) => x.wall)).toFixed(0).padStart(6)}`);
  }
}
