/**
 * `work()`: what `graphc worker --postgres URL files…` runs — the graphs loaded from their `.graph` files,
 * the Postgres backend, and a worker pool claiming runs from its queue; no HTTP. `close()` is the
 * graceful shutdown: stop claiming, let running runs finish for `drainMs`, requeue the others (another
 * worker resumes them from their last checkpoint), leave the worker table, close the backend.
 *
 * Runs are saved with `durability: "sync"`: each step's checkpoint and each task's writes are in Postgres
 * before the next step starts, so a worker killed at any moment loses at most the tasks that were still
 * running — the next worker re-runs those and no step or task that had completed (docs/durability.md).
 */
import { join } from "node:path";
import type { CompiledGraph } from "@graphc/runtime";
import { loadGraphs } from "../load-graphs.ts";
import { WorkerPool } from "../worker.ts";
import { PostgresBackend, type PostgresBackendOptions } from "./backend.ts";

export interface WorkOptions extends PostgresBackendOptions {
  readonly url: string;
  readonly files: readonly string[];
  /** where the compiled graphs go (default `.graphc-server` in the working directory) */
  readonly dataDir?: string | undefined;
  /** runs executed at once in this process (default 4) */
  readonly concurrency?: number | undefined;
  /** time running runs get to finish at shutdown before they are requeued (default 10 s) */
  readonly drainMs?: number | undefined;
}

export interface RunningWorker {
  readonly workerId: string;
  readonly graphs: readonly string[];
  close(): Promise<void>;
}

export async function work(options: WorkOptions): Promise<RunningWorker> {
  const loaded = await loadGraphs(options.files, options.dataDir ?? join(process.cwd(), ".graphc-server"));
  const backend = await PostgresBackend.open(options.url, options);
  const { saver, store } = backend;
  const graphs = new Map<string, CompiledGraph>(
    loaded.map((g) => [g.id, g.graph.withConfig({ checkpointer: saver, store, durability: "sync", multitask: "enqueue" })]),
  );
  const pool = new WorkerPool(backend, graphs, { concurrency: options.concurrency ?? 4 });
  pool.start();
  let closing: Promise<void> | undefined;
  return {
    workerId: backend.workerId,
    graphs: [...graphs.keys()],
    close() {
      closing ??= (async () => {
        await pool.stop(options.drainMs ?? 10_000);
        await backend.close();
      })();
      return closing;
    },
  };
}
