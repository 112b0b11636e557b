/**
 * The differential run: generate programs, compile all of them with graphc in ONE `buildFiles` call (one
 * temp folder inside the repository, so generated code resolves `@graphc/runtime` like any user code), build
 * the same programs with @langchain/langgraph, run both and compare.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  buildFiles,
  check,
  hasErrors,
  lower,
  VERSION,
  type BuildOutput,
  type Diagnostic,
} from "../../compiler/index.ts";
import { compileGraph, LeanGraph } from "@graphc/runtime";
import { emitFileText } from "../../compiler/phases/5-emit/file.ts";
import { extractMarkers } from "../../compiler/phases/5-emit/format.ts";
import { DEFAULT_OPTIONS, generateProgram, type GenOptions } from "./gen.ts";
import { graphText, nodesModule } from "./graph-text.ts";
import { buildLangGraph } from "./langgraph.ts";
import type { Program } from "./model.ts";
import { rootOf } from "./model.ts";
import { observe, type Observation, type Runnable } from "./observe.ts";

export interface Mismatch {
  readonly program: Program;
  readonly what: string;
  readonly graphc: unknown;
  readonly langgraph: unknown;
}

export interface BatchResult {
  readonly programs: number;
  /** outcome counts on the LangGraph side: "ok", or an error class */
  readonly outcomes: Record<string, number>;
  readonly supersteps: number;
  /** programs whose root graph graphc found lean-eligible: its invoke ran the lean loop (runtime/lean/) */
  readonly lean: number;
  readonly mismatches: Mismatch[];
  /** compile errors graphc reported for generated programs (each is a failure) */
  readonly compileErrors: string[];
  readonly ms: { build: number; run: number };
}

/** The error classes a generated program may legitimately end with. */
export const EXPECTED_ERRORS = new Set(["InvalidUpdateError", "GraphRecursionError"]);

/**
 * The compiler's own phases (check, lower, emit) in one batch, without the final prettier pass, which is
 * ~75% of compile time over hundreds of files and does not change the code. `format: true` runs the whole
 * `buildFiles` pipeline instead. Both skip the TypeScript pass: it only re-checks the deliberately
 * `any`-typed node functions of the generated nodes modules.
 */
function emitUnformatted(files: readonly string[]): { outputs: BuildOutput[]; diagnostics: Diagnostic[] } {
  const checked = check(files);
  if (!checked.program || hasErrors(checked.diagnostics))
    return { outputs: [], diagnostics: checked.diagnostics };
  const lowered = lower(checked.program);
  const outputs: BuildOutput[] = [];
  const diagnostics = [...checked.diagnostics, ...lowered.diagnostics];
  for (const f of lowered.value.files) {
    const raw = emitFileText(f, lowered.value, { version: VERSION });
    diagnostics.push(...raw.diagnostics);
    outputs.push({ path: raw.path, text: extractMarkers(raw.text, raw.spans).text });
  }
  return { outputs, diagnostics };
}

export async function runBatch(opts: {
  firstSeed: number;
  count: number;
  dir: string;
  format?: boolean;
  generator?: GenOptions;
}): Promise<BatchResult> {
  const { dir } = opts;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const behaviour = relative(dir, fileURLToPath(new URL("./behaviour.ts", import.meta.url)))
    .split("\\")
    .join("/");
  const programs: Program[] = [];
  const files: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const p = generateProgram(opts.firstSeed + i, opts.generator ?? DEFAULT_OPTIONS);
    programs.push(p);
    const file = join(dir, `${p.id}.graph`);
    writeFileSync(file, graphText(p));
    writeFileSync(
      join(dir, `${p.id}.nodes.ts`),
      nodesModule(p, behaviour.startsWith(".") ? behaviour : `./${behaviour}`),
    );
    files.push(file);
  }

  const t0 = performance.now();
  const built = opts.format ? await buildFiles(files, { typecheck: false }) : emitUnformatted(files);
  const compileErrors = built.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => `${d.code} ${d.span.file}:${d.span.start.line}: ${d.message}`);
  for (const o of built.outputs) writeFileSync(o.path, o.text);
  const build = performance.now() - t0;

  const t1 = performance.now();
  const outcomes: Record<string, number> = {};
  const mismatches: Mismatch[] = [];
  let supersteps = 0;
  let lean = 0;
  if (compileErrors.length === 0) {
    for (const p of programs) {
      const mod = (await import(pathToFileURL(join(dir, `${p.id}.graph.ts`)).href)) as Record<
        string,
        unknown
      >;
      const ours = mod[rootOf(p).name] as Runnable | undefined;
      if (!ours) throw new Error(`${p.id}.graph.ts does not export ${rootOf(p).name}`);
      const theirs = buildLangGraph(p);
      const input = p.input as Record<string, unknown>;
      const a = await observe(ours, input, p.recursionLimit);
      const b = await observe(theirs, input, p.recursionLimit, { invoke: false });
      const outcome = b.invokeError ?? "ok";
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      supersteps += b.steps.length;
      mismatches.push(...compare(p, a, b));
      if (ours instanceof LeanGraph) {
        // the lean loop's invoke against the full loop's on the same spec: the same result or error class
        lean++;
        const full = await observe(compileGraph(ours.spec), input, p.recursionLimit);
        const diff = (what: string, x: unknown, y: unknown) => {
          if (JSON.stringify(x) !== JSON.stringify(y)) mismatches.push({ program: p, what: `lean vs full loop: ${what}`, graphc: x, langgraph: y });
        };
        diff("invoke error class", a.invokeError ?? null, full.invokeError ?? null);
        diff("invoke final state", a.final ?? null, full.final ?? null);
      }
    }
  }
  return {
    programs: programs.length,
    outcomes,
    supersteps,
    lean,
    mismatches,
    compileErrors,
    ms: { build, run: performance.now() - t1 },
  };
}

export function compare(p: Program, ours: Observation, theirs: Observation): Mismatch[] {
  const out: Mismatch[] = [];
  const diff = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ program: p, what, graphc: a, langgraph: b });
  };
  if (theirs.invokeError !== undefined && !EXPECTED_ERRORS.has(theirs.invokeError)) {
    out.push({
      program: p,
      what: "LangGraph failed with an error the generator should never cause",
      graphc: ours.invokeError,
      langgraph: theirs.invokeError,
    });
  }
  diff("invoke error class", ours.invokeError ?? null, theirs.invokeError ?? null);
  diff("invoke final state", ours.final ?? null, theirs.final ?? null);
  diff("stream error class", ours.streamError ?? null, theirs.streamError ?? null);
  // When a run fails, LangGraph's stream rejects as soon as the loop throws and drops the chunks still
  // queued (the last supersteps' updates and values; verified on recursion-limit runs), so it may deliver
  // fewer supersteps than it ran. graphc delivers every chunk; the steps LangGraph did deliver must match.
  if (theirs.streamError !== undefined && ours.streamError !== undefined) {
    if (ours.steps.length < theirs.steps.length)
      diff("number of supersteps streamed before the error", ours.steps.length, theirs.steps.length);
  } else {
    diff("number of supersteps streamed", ours.steps.length, theirs.steps.length);
  }
  const n = Math.min(ours.steps.length, theirs.steps.length);
  for (let i = 0; i < n; i++) {
    diff(`superstep ${i}: updates (as a multiset)`, ours.steps[i]?.updates, theirs.steps[i]?.updates);
    diff(`superstep ${i}: values`, ours.steps[i]?.values, theirs.steps[i]?.values);
  }
  return out;
}

/** A readable account of one mismatch: the seed to replay, what differed, and the program. */
export function explain(m: Mismatch, programText: string): string {
  return [
    `program ${m.program.id} (seed ${m.program.seed}, input ${JSON.stringify(m.program.input)}, recursionLimit ${m.program.recursionLimit}): ${m.what}`,
    `  graphc:    ${JSON.stringify(m.graphc)}`,
    `  langgraph: ${JSON.stringify(m.langgraph)}`,
    programText
      .split("\n")
      .map((l) => `  | ${l}`)
      .join("\n"),
  ].join("\n");
}
