/**
 * Prettier on a worker thread, for `graphc build` (the CLI starts it; the API, the language server and the
 * bundler plugins format on their own thread, format.ts). Cold, prettier costs about a second of loading
 * and warming up before it formats anything, and the TypeScript pass blocks the main thread for about as
 * long (the native binary is spoken to synchronously, ts-native.ts): on a thread of its own, prettier warms
 * up while the compiler loads, checks and runs TypeScript, and formats the drafts' statements meanwhile
 * (`prefetch`), so the final emit finds most of them formatted. Output is the same either way: the thread
 * runs the same format.ts functions (prettier-worker.ts).
 */
import { Worker } from "node:worker_threads";

/** A parsed program's top-level statements (offsets) and the number of its directives. */
export interface Parsed {
  readonly body: readonly { readonly start: number; readonly end: number }[];
  readonly directives: number;
}

/**
 * What the thread is asked: to format or parse a text; the keys of the disk cache (format-cache.ts
 * `cacheKey`: its statements are formatted already); to format a draft's statements in advance.
 */
export type Request =
  | { readonly id: number; readonly op: "format" | "parse" | "prefetch"; readonly text: string }
  | { readonly id: number; readonly op: "known"; readonly salt: string; readonly keys: readonly string[] };

/** Its answers: a request's value (or error), and each statement it formatted in advance. */
export type Reply =
  | { readonly id: number; readonly value?: unknown; readonly error?: string }
  | { readonly id: -1; readonly raw: string; readonly pretty: string };

export class PrettierThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private next = 0;
  private failed = false;
  /** called with each statement formatted in advance (format.ts keeps them) */
  onFormatted: ((raw: string, pretty: string) => void) | undefined;

  constructor() {
    this.worker = workerFor(new URL(`./prettier-worker.${import.meta.url.endsWith(".ts") ? "ts" : "js"}`, import.meta.url));
    // the thread never keeps the process alive on its own: only while a request waits for its answer
    this.worker.unref();
    this.worker.on("message", (m: Reply) => this.receive(m));
    this.worker.on("error", (e) => this.fail(e));
    this.worker.on("exit", () => this.fail(new Error("prettier thread exited")));
    this.send({ id: this.id(), op: "format", text: "const warm = 1;\n" }, false);
  }

  get usable(): boolean {
    return !this.failed;
  }

  format(text: string): Promise<string> {
    return this.ask({ id: this.id(), op: "format", text }) as Promise<string>;
  }

  parse(text: string): Promise<Parsed | undefined> {
    return this.ask({ id: this.id(), op: "parse", text }) as Promise<Parsed | undefined>;
  }

  /** The disk cache's salt and keys: `prefetch` skips what they hold. */
  known(salt: string, keys: readonly string[]): void {
    this.send({ id: this.id(), op: "known", salt, keys }, false);
  }

  /**
   * Formats the statements of `text` (a raw generated file) not formatted yet, each passed to
   * `onFormatted`; resolves when done.
   */
  prefetch(text: string): Promise<void> {
    return this.ask({ id: this.id(), op: "prefetch", text }).then(() => undefined);
  }

  private id(): number {
    return this.next++;
  }

  private ask(request: Request): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.worker.ref();
      this.send(request, true);
    });
  }

  private send(request: Request, answered: boolean): void {
    if (this.failed) {
      if (answered) this.settle(request.id)?.reject(new Error("prettier thread failed"));
      return;
    }
    this.worker.postMessage(request);
  }

  private receive(m: Reply): void {
    if (m.id === -1) {
      if ("raw" in m) this.onFormatted?.(m.raw, m.pretty);
      return;
    }
    const waiting = this.settle(m.id);
    if (!waiting) return;
    if ("error" in m && m.error !== undefined) waiting.reject(new Error(m.error));
    else waiting.resolve("value" in m ? m.value : undefined);
  }

  private settle(id: number) {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    return waiting;
  }

  private fail(e: Error): void {
    this.failed = true;
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(e);
  }
}

/**
 * The worker for the module at `url`: compiled JavaScript as it is; a TypeScript source (the repository's
 * tests and `npm run graphc`) through tsx's loader, which a worker does not inherit.
 */
function workerFor(url: URL): Worker {
  if (!url.pathname.endsWith(".ts")) return new Worker(url);
  const tsx = import.meta.resolve("tsx/esm/api");
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(url.href)}))`, { eval: true });
}

let thread: PrettierThread | undefined;

/** Starts the thread (once per process); format.ts uses it from then on. */
export function startPrettierThread(): void {
  thread ??= new PrettierThread();
}

/** The running thread, if started and not failed (then format.ts formats on its own thread). */
export function prettierThread(): PrettierThread | undefined {
  return thread?.usable ? thread : undefined;
}
