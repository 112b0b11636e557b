/**
 * The TypeScript side of a build, on one in-memory program (one TypeScript checker for the whole build),
 * between the draft and the final emit (compile.ts: check → lower → emit draft → this → emit final):
 * 1. the draft of every generated file (unformatted, every function `sync: false`) is staged, because the
 *    user's modules usually import their types from the generated file;
 * 2. the modules the generated files import are added;
 * 3. the draft is type-checked and its errors mapped to `.graph` spans (the draft and the final output
 *    differ only in formatting and in `sync` specialisation, which TypeScript does not see differently);
 *    when the generated file would be CommonJS (package-type.ts) or the runtime module does not resolve
 *    from the project, that is the one error instead (every TypeScript error would be a cascade of it:
 *    TS1295 on each import, "Parameter 'raw' implicitly has an 'any' type"…);
 * 4. the same program answers "is this function synchronous, does it return no Command?", which `withSync`
 *    records in the IR.
 * The program is native TypeScript 7's (ts-native.ts) or, where its binary does not run, ts-morph's (ts-check.ts).
 */
import { relative } from "node:path";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import type { ImportRef, Program } from "../2-bind/model.ts";
import type { ReturnOracle } from "../4-lower/index.ts";
import { importSpecifier, type EmittedText } from "./file.ts";
import type { ImportExt } from "./import-ext.ts";
import { traceLines } from "./format.ts";
import { d } from "../../diagnostics/messages.ts";
import { fileStart } from "../2-bind/bind.ts";
import { packageTypeOf } from "./package-type.ts";
import { RUNTIME_PACKAGE } from "./runtime-api.ts";
import { userTsconfig } from "../../user-tsconfig.ts";
import { TsWorld } from "./ts-check.ts";
import { NativeWorld } from "./ts-native.ts";

export interface TypecheckResult {
  readonly diagnostics: Diagnostic[];
  readonly returns: ReturnOracle;
}

/** One draft: the `.graph` file and the unformatted text emitted for it. */
export interface Draft {
  readonly source: string;
  readonly raw: EmittedText;
}

export function typecheckDrafts(
  program: Program,
  drafts: readonly Draft[],
  options: {
    readonly outPath: (graphFile: string) => string;
    readonly cwd?: string | undefined;
    /** `--import-ext`: the drafts import the node modules with it, so their specifiers are looked up with it */
    readonly importExt?: ImportExt | undefined;
  },
): TypecheckResult {
  const { outPath, importExt } = options;
  // native TypeScript 7 when its binary runs here, else the same pass on TypeScript's JavaScript API
  const world = NativeWorld.shared(options.cwd) ?? TsWorld.shared(options.cwd);
  world.stage(drafts.map((d) => d.raw));
  const imports = [...program.files.values()].flatMap((f) =>
    f.imports
      .filter((i) => i.kind === "value")
      .map((i) => ({ module: importSpecifier(i.module, f.path, outPath(f.path), importExt), outFile: outPath(f.path) })),
  );
  world.prepare(imports);
  // a name the module cannot bind leaves the draft unparsable: emission reports it, TypeScript need not
  const broken = drafts.some((d) => d.raw.diagnostics.some((x) => x.severity === "error"));
  const cwd = options.cwd ?? process.cwd();
  // one error instead of TypeScript's cascades: a CommonJS package, then a runtime that does not resolve
  const cjs = broken || userTsconfig(cwd).bundler ? undefined : drafts.find((d) => !packageTypeOf(d.raw.path, cwd).esm);
  // the module the draft imports (a probe of another would change the snapshot, and so re-check every draft, in each watch rebuild)
  const noRuntime = broken || cjs ? undefined : drafts.find((d) => !world.resolves(d.raw.runtime, d.raw.path));
  const diagnostics = broken
    ? []
    : cjs
      ? [d.commonJsPackage(firstGraphSpan(program, cjs.source), { outFile: cjs.raw.path, packageJson: shown(packageTypeOf(cjs.raw.path, cwd).file, cwd) })]
      : noRuntime
        ? [d.runtimeNotFound(firstGraphSpan(program, noRuntime.source), { module: noRuntime.raw.runtime, package: RUNTIME_PACKAGE, outFile: noRuntime.raw.path })]
        : world.diagnose(
          drafts.map((d) => ({
            path: d.raw.path,
            text: d.raw.text,
            lines: traceLines(d.raw.text, d.raw.spans),
            source: d.source,
            bindings: d.raw.bindings,
          })),
        );
  // G3098 of a module that several drafts import is reported once, at the first (the same message)
  const said = new Set<string>();
  const unique = diagnostics.filter((x) => x.code !== "G3098" || (!said.has(x.message) && said.add(x.message)));
  // the module specifier is resolved from the generated file, as tsc will resolve it
  const returns = (fn: ImportRef, file: string) =>
    world.returns({ ...fn, module: importSpecifier(fn.module, file, outPath(file), importExt) }, outPath(file));
  return { diagnostics: unique, returns };
}

/** `file` as a message shows it: relative to the working directory, with `/` */
function shown(file: string | undefined, cwd: string): string | undefined {
  return file === undefined ? undefined : relative(cwd, file).replace(/\\/g, "/");
}

/** Where a file-wide error goes: the name of the file's first graph, or the file's start. */
function firstGraphSpan(program: Program, source: string) {
  const graph = program.files.get(source)?.ast.items.find((i) => i.kind === "Graph");
  return graph?.kind === "Graph" ? graph.name.span : fileStart(source);
}
