/**
 * The TypeScript pass of a one-shot `graphc build` on a worker thread (ts-thread-worker.ts), so that the
 * main thread is free while the native binary parses and checks (about a second, during which the
 * synchronous pass would hold the main thread in a blocking read of its pipe): compile.ts formats the
 * drafts meanwhile (prettier's cold start is the other half of a cold build). The thread runs the same
 * pass as typecheckDrafts (`runTypecheck`) on its own world and answers every `isSync` question the
 * final emit will ask, known from the IR beforehand; it ends after one build, its binary with it. A
 * `--watch` session, the language server and the API keep the pass in-process: their world is reused.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { ImportRef, Program } from "../2-bind/model.ts";
import { withSync, type ProgramIR } from "../4-lower/index.ts";
import { syncQuery, typecheckDiagnostics, typecheckJob, type Draft, type TypecheckResult } from "./typecheck-job.ts";
import type { TypecheckAnswer, TypecheckJob } from "./typecheck-run.ts";
import type { UserTsconfig } from "../../user-tsconfig.ts";

/** What the thread is sent: the job and the `isSync` questions, in the order of `sync` in its answer. */
export interface ThreadJob extends TypecheckJob {
  readonly queries: readonly { fn: ImportRef; outFile: string }[];
}

/** What the thread posts: the user's tsconfig settings as it starts, then its answer to the job. */
export type ThreadMessage = { readonly tsconfig: UserTsconfig } | ThreadAnswer;

export interface ThreadAnswer extends TypecheckAnswer {
  readonly sync: readonly boolean[];
}

export class TypecheckThread {
  private readonly worker: Worker;
  private readonly answer: Promise<ThreadAnswer>;
  /** the user's tsconfig settings (user-tsconfig.ts), read by the thread's binary */
  readonly tsconfig: Promise<UserTsconfig>;

  /** Starts the thread (loading its modules) before the job is known: it overlaps parsing the `.graph` files. */
  constructor(cwd: string) {
    // from the sources (tests, `npm run graphc`), the thread loads its TypeScript through tsx's loader first
    const ts = import.meta.url.endsWith(".ts");
    const url = new URL(`./ts-thread-worker.${ts ? "ts" : "js"}`, import.meta.url);
    const workerData = { cwd };
    if (ts) {
      // tsx/esm/api as an ES module (`require.resolve` finds its CommonJS twin)
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
      const load = `import(${JSON.stringify(tsx)}).then((t) => t.register()).then(() => import(${JSON.stringify(url.href)}))`;
      this.worker = new Worker(load, { eval: true, workerData });
    } else this.worker = new Worker(url, { workerData });
    this.worker.unref();
    const ended = new Promise<never>((_, reject) => {
      this.worker.once("error", reject);
      this.worker.once("exit", (code) => reject(new Error(`the TypeScript thread ended (exit code ${code}) without an answer`)));
    });
    const message = (): Promise<ThreadMessage> => Promise.race([new Promise<ThreadMessage>((resolve) => this.worker.once("message", resolve)), ended]);
    this.tsconfig = message().then((m) => ("tsconfig" in m ? m.tsconfig : Promise.reject(new Error("the TypeScript thread answered out of turn"))));
    this.answer = this.tsconfig.then(message).then((m) => ("sync" in m ? m : Promise.reject(new Error("the TypeScript thread answered out of turn"))));
    // a build that stops before its TypeScript pass (errors in the `.graph` files) never reads them
    this.answer.catch(() => undefined);
    ended.catch(() => undefined);
  }

  /** Sends the build's drafts; resolves to the pass's result once the thread answers. */
  async typecheck(
    program: Program,
    ir: ProgramIR,
    drafts: readonly Draft[],
    options: { readonly outPath: (graphFile: string) => string; readonly cwd?: string | undefined },
  ): Promise<TypecheckResult> {
    const keys: string[] = [];
    const queries: ThreadJob["queries"][number][] = [];
    withSync(ir, (fn, file) => {
      keys.push(syncKey(fn, file));
      queries.push(syncQuery(fn, file, options.outPath));
      return false;
    });
    const job: ThreadJob = { ...typecheckJob(program, drafts, options), queries };
    this.worker.postMessage(job);
    const answer = await this.answer;
    const sync = new Map(keys.map((k, i) => [k, answer.sync[i] === true]));
    return { diagnostics: typecheckDiagnostics(program, answer), isSync: (fn, file) => sync.get(syncKey(fn, file)) === true };
  }

  /** Ends the thread (and its binary) without a job. */
  stop(): void {
    void this.worker.terminate();
  }
}

function syncKey(fn: ImportRef, file: string): string {
  return `${file}\u0000${fn.module}\u0000${fn.exported}`;
}
