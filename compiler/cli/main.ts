/**
 * The `graphc` command line. `main(argv, io)` runs one invocation and resolves to its exit code; it never
 * calls process.exit, so tests drive it in-process. Run as a script (bin/graphc.mjs), it uses the real
 * process. Exit codes: 0 no errors (warnings allowed), 1 errors in the input or stale output, 2 usage error.
 */
import { pathToFileURL } from "node:url";
import { Command, CommanderError, Option } from "commander";
import { type CliIO, EXIT, UsageError, nodeIO } from "./io.ts";
import { VERSION } from "../version.ts";
import { IMPORT_EXTS, type ImportExt } from "../phases/5-emit/import-ext.ts";
import type { RuntimeMode } from "../phases/4-lower/lean.ts";

const ROOT_FLAG = "--root <dir>";
const ROOT_HELP = "the only folder .graph files are read from (default: the nearest folder above each file with a package.json or tsconfig.json)";

// Commands are imported when run: `build` and `check` pull in TypeScript (ts-morph) and prettier, which `--version`
// and `fmt` should not pay for.
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command("graphc")
    .description("Compile typed .graph files to TypeScript state graphs")
    .version(VERSION, "-v, --version")
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showSuggestionAfterError()
    .allowExcessArguments(false);

  program
    .command("check")
    .description("parse and check .graph files, print diagnostics")
    .argument("[files...]", "files, directories or globs (default: every .graph file here)")
    .addOption(new Option("--format <format>", "diagnostic output").choices(["pretty", "json"]).default("pretty"))
    .option("--no-typecheck", "skip checking node functions against the generated types with TypeScript (faster)")
    .option(ROOT_FLAG, ROOT_HELP)
    .action(async (files: string[], opts: { format: "pretty" | "json"; typecheck: boolean; root?: string }) => {
      code = await (await import("./check.ts")).checkCommand(io, files, opts);
    });

  program
    .command("fmt")
    .description("format .graph files in place")
    .argument("[files...]", "files, directories or globs (default: every .graph file here)")
    .option("--check", "write nothing; exit 1 when a file is not formatted, and list it")
    .action(async (files: string[], opts: { check?: boolean }) => {
      code = await (await import("./fmt.ts")).fmtCommand(io, files, opts);
    });

  program
    .command("build")
    .description("compile .graph files to .graph.ts")
    .argument("[files...]", "files, directories or globs (default: every .graph file here)")
    .option("--out <dir>", "write outputs under this directory (default: beside each .graph file)")
    .option("--watch", "rebuild what depends on a file whenever it changes")
    .option("--check", "write nothing; exit 1 when an output is missing or stale")
    .option("--no-typecheck", "skip checking node functions against the generated types with TypeScript (faster)")
    .option(ROOT_FLAG, ROOT_HELP)
    .addOption(
      new Option("--import-ext <ext>", "extension of relative imports in generated code (default: from the nearest tsconfig.json)").choices(
        IMPORT_EXTS,
      ),
    )
    .addOption(
      new Option(
        "--runtime <mode>",
        'what generated code installs: "full" (every part its graphs can reach: streaming, Commands, node policies) or "lean" (nothing for files whose graphs are all lean-eligible: the smallest bundles; stream() then needs @graphc/runtime/streaming)',
      )
        .choices(["full", "lean"])
        .default("full"),
    )
    .action(
      async (
        files: string[],
        opts: { out?: string; watch?: boolean; check?: boolean; typecheck: boolean; root?: string; importExt?: ImportExt; runtime?: RuntimeMode },
      ) => {
      code = await (await import("./build.ts")).buildCommand(io, files, opts);
    });

  program
    .command("init")
    .description("create a new project (a sample graph, node functions, a test) in a folder")
    .argument("[dir]", "the folder (default: here); it must be empty")
    .action(async (dir: string | undefined) => {
      code = (await import("./init.ts")).initCommand(io, dir);
    });

  program
    .command("graph")
    .description("draw a graph as Mermaid (default), Graphviz DOT or an SVG picture")
    .argument("<file>", "the .graph file")
    .option("--graph <name>", "which graph of the file (required when it holds several)")
    .option("--mermaid", "Mermaid flowchart, LangGraph's dialect (default)")
    .option("--dot", "Graphviz DOT")
    .option("--svg", "an SVG picture (the DOT drawing laid out offline by Graphviz in WebAssembly)")
    .option(ROOT_FLAG, ROOT_HELP)
    .action(async (file: string, opts: { graph?: string; mermaid?: boolean; dot?: boolean; svg?: boolean; root?: string }) => {
      code = await (await import("./graph.ts")).graphCommand(io, file, opts);
    });

  program
    .command("import")
    .description("convert another tool's workflow into .graph files with typed node modules (source: chatdev)")
    .argument("<source>", "what the file is: chatdev (a ChatDev 2.0 workflow YAML)")
    .argument("<file>", "the workflow file")
    .option("--out <dir>", "where the .graph files go (default: beside the workflow)")
    .option("--chatdev-root <dir>", "the ChatDev folder holding yaml_instance/ (default: found from the file's path)")
    .option(ROOT_FLAG, ROOT_HELP)
    .action(async (source: string, file: string, opts: { out?: string; chatdevRoot?: string; root?: string }) => {
      code = (await import("./import.ts")).importCommand(io, source, file, opts);
    });

  program
    .command("manifest")
    .description("write the JSON manifest of every graph: metadata, input/output/state schemas, nodes, subgraphs, vars")
    .argument("[files...]", "files, directories or globs (default: every .graph file here)")
    .option("--out <file>", "write the manifest to this file (default: stdout)")
    .option("--check", "with --out: write nothing; exit 1 when the file is not up to date")
    .option(ROOT_FLAG, ROOT_HELP)
    .action(async (files: string[], opts: { out?: string; check?: boolean; root?: string }) => {
      code = (await import("./manifest.ts")).manifestCommand(io, files, opts);
    });

  program
    .command("diff")
    .description("compare the graphs' contracts with a git ref or a manifest file; exit 1 on a breaking change without a major version bump")
    .argument("[files...]", "files, directories or globs (default: every .graph file here)")
    .requiredOption("--against <ref|manifest.json>", "a git ref (branch, tag, commit) or a manifest written by `graphc manifest`")
    .addOption(new Option("--format <format>", "output").choices(["text", "json", "github"]).default("text"))
    .option(ROOT_FLAG, ROOT_HELP)
    .action(async (files: string[], opts: { against: string; format: "text" | "json" | "github"; root?: string }) => {
      code = (await import("./diff.ts")).diffCommand(io, files, opts);
    });

  program
    .command("serve")
    .description("serve the graphs of .graph files over the LangGraph Server HTTP API (needs @graphc/server)")
    .argument("[files...]", "files, directories or globs (default: every .graph file here)")
    .option("--port <port>", "port to listen on (0: any free port)", "2024")
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--data <dir>", "folder of the SQLite database and the compiled graphs (default: .graphc-server)")
    .option("--workers <n>", "runs executed at once in this process (default 4; with --postgres 0: run `graphc worker`s)")
    .option("--tokens <file>", "bearer tokens: one `<token> <owner>` per line; threads are private to their owner")
    .option("--max-body <bytes>", "largest request body accepted (default 1 MiB)")
    .option("--drain <ms>", "at shutdown, how long running runs may finish before they are requeued", "10000")
    .option("--chat", "serve the demo chat page at /chat")
    .option("--postgres <url>", "scale-out: threads, runs and checkpoints in Postgres, runs queued for `graphc worker` processes")
    .option("--schema <name>", "with --postgres: schema of the server's tables (default: GRAPHC_POSTGRES_SCHEMA, else graphc)")
    .option("--heartbeat-ms <ms>", "with --postgres and --workers: heartbeat period of this process's workers (default 1000)")
    .action(async (files: string[], opts: import("./serve.ts").ServeFlags) => {
      code = await (await import("./serve.ts")).serveCommand(io, files, opts);
    });

  program
    .command("lsp")
    .description("run the language server (for editors)")
    .option("--stdio", "speak LSP over stdin/stdout")
    .action(async (opts: { stdio?: boolean }) => {
      code = await (await import("./lsp.ts")).lspCommand(opts);
    });

  program
    .command("worker")
    .description("run the graphs' queued runs: a worker process of `graphc serve --postgres` (docs/server.md)")
    .argument("<files...>", "the .graph files whose graphs it runs (as given to graphc serve)")
    .option("--postgres <url>", "the Postgres database the API processes use (default: GRAPHC_POSTGRES_URL)")
    .option("--schema <name>", "Postgres schema of the server's tables (default: GRAPHC_POSTGRES_SCHEMA, else graphc)")
    .option("--data <dir>", "where the compiled graphs go (default: .graphc-server)")
    .option("--concurrency <n>", "runs executed at once (default 4)")
    .option("--heartbeat-ms <ms>", "heartbeat period; a worker silent for 10 periods is taken for dead (default 1000)")
    .option("--drain <ms>", "at SIGINT/SIGTERM, time running runs get to finish before they are requeued (default 10000)")
    .action(async (files: string[], opts: import("./worker.ts").WorkerFlags) => {
      code = await (await import("./worker.ts")).workerCommand(io, files, opts);
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version end through exitOverride too
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (e instanceof UsageError) {
      io.stderr(`graphc: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}

/** Entry point of bin/graphc.mjs: the real process, Ctrl-C ends `--watch` cleanly. */
export async function run(): Promise<void> {
  const abort = new AbortController();
  process.once("SIGINT", () => abort.abort());
  process.exitCode = await main(process.argv.slice(2), nodeIO(abort.signal));
}

// `tsx compiler/cli/main.ts …` (the `npm run graphc` script) runs the CLI directly
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await run();
