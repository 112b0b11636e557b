/**
 * Runs queued runs: a pool of `concurrency` loops, each claiming a run from the backend, streaming the
 * graph on the run's thread, publishing every chunk as a stream event and finishing the run. The same pool
 * serves the embedded server (in-process) and `graphc worker` processes (Postgres backend).
 *
 * Resuming: a run claimed again after its worker stopped (`attempt > 1`) continues from the thread's last
 * checkpoint (`null` input) when it had already written one — the thread's newest checkpoint differs from
 * the one recorded by `markStarted` — and starts over with its own input when it had not; so no superstep
 * that finished is run twice. Cancels (`onCancel`) abort the run's signal; `rollback` then restores the
 * thread's checkpoint from before the run. `stop()` drains: in-flight runs get `drainMs` to finish, then
 * they are aborted and requeued (resumed by the next worker from their last checkpoint).
 */
import { Command, type CompiledGraph, type StreamMode } from "@graphc/runtime";
import type { Backend, CancelAction, Json, RunRow, RunStatus, ThreadPatch } from "./backend.ts";
import { errorText, pendingInterrupts } from "./state-json.ts";

export interface WorkerOptions {
  /** runs executed at once (default 4) */
  concurrency?: number;
  /** heartbeat period of a claimed run in ms (default 5000) */
  heartbeatMs?: number;
  /** report of unexpected failures (a backend that throws); default: console.error */
  log?: (message: string) => void;
}

/** SDK stream mode → runtime stream mode and SSE event name */
const MODES: Record<string, { mode: StreamMode; event: string }> = {
  values: { mode: "values", event: "values" },
  updates: { mode: "updates", event: "updates" },
  custom: { mode: "custom", event: "custom" },
  debug: { mode: "debug", event: "debug" },
  tasks: { mode: "tasks", event: "tasks" },
  checkpoints: { mode: "checkpoints", event: "checkpoints" },
  "messages-tuple": { mode: "messages", event: "messages" },
  messages: { mode: "messages", event: "messages" },
};

export const STREAM_MODES = Object.keys(MODES);

const SHUTDOWN = "graphc-worker-shutdown";

export class WorkerPool {
  private readonly stopping = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly inFlight = new Map<string, AbortController>();

  constructor(
    private readonly backend: Backend,
    private readonly graphs: ReadonlyMap<string, CompiledGraph>,
    private readonly options: WorkerOptions = {},
  ) {}

  start(): void {
    for (let i = 0; i < (this.options.concurrency ?? 4); i++) this.loops.push(this.loop());
  }

  private log(message: string): void {
    (this.options.log ?? ((m: string) => console.error(m)))(message);
  }

  private async loop(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      let run: RunRow | undefined;
      try {
        run = await this.backend.claimRun(this.stopping.signal);
      } catch (e) {
        if (this.stopping.signal.aborted) return;
        this.log(`graphc worker: claiming a run failed: ${errorText(e)}`);
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      if (!run) return;
      try {
        await this.execute(run);
      } catch (e) {
        this.log(`graphc worker: run ${run.run_id} failed outside the graph: ${errorText(e)}`);
      }
    }
  }

  /** Stops claiming; lets running runs finish for `drainMs`, then aborts and requeues them. */
  async stop(drainMs = 10_000): Promise<void> {
    this.stopping.abort();
    const all = Promise.all(this.loops);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        for (const ac of this.inFlight.values()) ac.abort(SHUTDOWN);
        resolve();
      }, drainMs);
    });
    await Promise.race([all, late]);
    await all;
    clearTimeout(timer);
  }

  private async execute(run: RunRow): Promise<void> {
    const { backend } = this;
    const graph = this.graphs.get(run.assistant_id);
    if (!graph) {
      await this.finish(run, "error", { error: "GraphNotFound", message: `no graph named ${run.assistant_id} is served` }, { status: "error" });
      return;
    }
    const ac = new AbortController();
    let cancel: CancelAction | undefined = run.cancel_action;
    const unsubscribe = backend.onCancel(run.run_id, (action) => {
      cancel = action;
      ac.abort(action);
    });
    this.inFlight.set(run.run_id, ac);
    const beat = setInterval(() => void backend.heartbeat(run.run_id).catch(() => {}), this.options.heartbeatMs ?? 5000);
    beat.unref();
    const thread = { configurable: { thread_id: run.thread_id } };
    try {
      if (cancel) ac.abort(cancel);
      const latest = (await backend.saver.getTuple({ configurable: { thread_id: run.thread_id, checkpoint_ns: "" } }))?.checkpoint.id ?? null;
      const fresh = run.checkpoint_before === undefined || run.checkpoint_before === latest;
      if (run.checkpoint_before === undefined) await backend.markStarted(run.run_id, latest);
      const before = run.checkpoint_before === undefined ? latest : run.checkpoint_before;
      await backend.publish(run.run_id, { event: "metadata", data: { run_id: run.run_id, attempt: run.attempt } });
      try {
        await this.stream(run, graph, fresh, ac.signal);
      } catch (e) {
        if (ac.signal.reason === SHUTDOWN) {
          await backend.requeue(run.run_id);
          return;
        }
        if (cancel) {
          if (cancel === "rollback") await this.rollback(graph, run.thread_id, before);
          await this.finish(run, "interrupted", undefined, await this.threadPatch(graph, thread));
          return;
        }
        const error = e instanceof Error ? { error: e.name, message: e.message } : { error: "Error", message: String(e) };
        await backend.publish(run.run_id, { event: "error", data: error });
        await this.finish(run, "error", error, { ...(await this.threadPatch(graph, thread)), status: "error" });
        return;
      }
      const patch = await this.threadPatch(graph, thread);
      const interrupts = Object.values(patch.interrupts ?? {}).flat();
      const result = { ...(patch.values ?? {}), ...(interrupts.length > 0 ? { __interrupt__: interrupts } : {}) };
      await this.finish(run, "success", result, patch);
    } finally {
      clearInterval(beat);
      unsubscribe();
      this.inFlight.delete(run.run_id);
    }
  }

  private async finish(run: RunRow, status: RunStatus, result: Json | undefined, thread: ThreadPatch): Promise<void> {
    await this.backend.finishRun(run.run_id, status, result, thread);
    await this.backend.publish(run.run_id, { event: "end", data: null });
  }

  private async stream(run: RunRow, graph: CompiledGraph, fresh: boolean, signal: AbortSignal): Promise<void> {
    const { kwargs } = run;
    const configurable: Record<string, unknown> = { thread_id: run.thread_id };
    if (fresh && kwargs.checkpoint_id) configurable["checkpoint_id"] = kwargs.checkpoint_id;
    const requested = kwargs.stream_mode.length > 0 ? kwargs.stream_mode : ["values"];
    const modes = [...new Set(requested.map((m) => MODES[m]!.mode))];
    const input = !fresh ? null : kwargs.command ? new Command(kwargs.command) : kwargs.input;
    const cfg = kwargs.config;
    const recursion = cfg["recursion_limit"];
    const vars = { ...(cfg["configurable"] as Json | undefined), ...(cfg["context"] as Json | undefined) };
    for (const id of ["thread_id", "checkpoint_id", "checkpoint_ns", "checkpoint_map"]) delete vars[id];
    const options = {
      configurable,
      streamMode: modes,
      subgraphs: true as const,
      signal,
      checkpointer: this.backend.saver,
      ...(this.backend.store ? { store: this.backend.store } : {}),
      ...(Object.keys(vars).length > 0 ? { vars } : {}),
      ...(typeof recursion === "number" ? { recursionLimit: recursion } : {}),
      ...(kwargs.interrupt_before ? { interruptBefore: kwargs.interrupt_before } : {}),
      ...(kwargs.interrupt_after ? { interruptAfter: kwargs.interrupt_after } : {}),
    };
    if (!fresh && (await threadFinished(graph, run.thread_id))) return;
    for await (const chunk of graph.stream(input as never, options)) {
      const [ns, mode, payload] = chunk as unknown as [string[], StreamMode, unknown];
      if (ns.length > 0 && !kwargs.stream_subgraphs && mode !== "custom" && mode !== "messages") continue;
      const event = mode === "messages" ? "messages" : mode;
      await this.backend.publish(run.run_id, { event: ns.length > 0 && kwargs.stream_subgraphs ? `${event}|${ns.join("|")}` : event, data: payload });
    }
  }

  private async threadPatch(graph: CompiledGraph, config: { configurable: { thread_id: string } }): Promise<ThreadPatch> {
    const state = await graph.getState(config);
    const interrupts = pendingInterrupts(state);
    const paused = Object.keys(interrupts).length > 0 || state.next.length > 0;
    return { values: state.values as Json, interrupts, status: paused ? "interrupted" : "idle" };
  }

  /** the thread's checkpoint from before the run becomes its newest again (or the thread is emptied) */
  private async rollback(graph: CompiledGraph, threadId: string, before: string | null): Promise<void> {
    if (before === null) {
      await this.backend.saver.deleteThread(threadId);
      return;
    }
    await graph.updateState({ configurable: { thread_id: threadId, checkpoint_id: before }, checkpointer: this.backend.saver }, null, "__copy__");
  }
}

/**
 * Whether a retried run's thread had already finished: its latest checkpoint has no tasks. Not `next`, which
 * (as LangGraph's) leaves out tasks whose writes are stored: a worker killed after a step's writes and before
 * the next checkpoint leaves `next` empty mid-run, and the retry then ended "success" on half a state.
 */
export async function threadFinished(graph: CompiledGraph, threadId: string): Promise<boolean> {
  return (await graph.getState({ configurable: { thread_id: threadId } })).tasks.length === 0;
}
