/**
 * `CompiledGraph.stream()`: the chunk queue and the sink a run pushes its events into. Installed by
 * "@graphc/runtime" (install.ts); a graph that is only invoked never bundles it.
 */
import type { StreamOptions } from "./config.ts";
import { mergeConfig } from "./config.ts";
import { checkConfigIds } from "./config-ids.ts";
import type { StreamSink } from "./contracts.ts";
import type { StreamTarget } from "./features.ts";
import { ChunkQueue, modeBits } from "./stream.ts";
import type { StreamMode } from "./stream.ts";
import {
  emitCustom, emitInterrupt, emitMessages, emitStepStart, emitTaskDone, emitTaskStart, emitTaskStopped, emitValues, emitView,
} from "./stream-events.ts";

// the event hooks (contracts.ts's StreamEvents) as an object literal: a module namespace would carry every export
const ev: StreamSink["ev"] = {
  emitValues, emitView, emitInterrupt, emitTaskStart, emitStepStart, emitTaskDone, emitTaskStopped, emitMessages, emitCustom,
};

/**
 * Streams chunks (reference §6). Both `for await (const c of graph.stream(…))` and LangGraph's
 * `for await (const c of await graph.stream(…))` work. Breaking out of the loop cancels the run.
 */
export function stream(
  graph: StreamTarget,
  input: unknown,
  options?: StreamOptions,
): Promise<AsyncIterableIterator<unknown>> & AsyncIterableIterator<unknown> {
  const cfg = mergeConfig(graph.defaults, options);
  const queue = new ChunkQueue<unknown>();
  const mode = cfg.streamMode ?? "updates";
  const single = typeof mode === "string";
  const modes = single ? [mode as StreamMode] : (mode as readonly StreamMode[]);
  const subgraphs = cfg.subgraphs === true;
  const sink: StreamSink = {
    modes: modeBits(modes),
    subgraphs,
    ev,
    push(ns, m, payload) {
      queue.put(single ? (subgraphs ? [ns, payload] : payload) : subgraphs ? [ns, m, payload] : [m, payload]);
    },
  };
  const ctl = new AbortController();
  const user = cfg.signal;
  if (user) {
    if (user.aborted) ctl.abort(user.reason);
    else user.addEventListener("abort", () => ctl.abort(user.reason), { once: true });
  }
  queue.onCancel = () => ctl.abort(new Error("stream consumer stopped"));
  Promise.resolve()
    .then(() => {
      const checked = checkConfigIds(cfg, graph.spec.name);
      return graph.streamRun(checked, sink, ctl.signal, input);
    })
    .then(
      () => queue.end(),
      (e: unknown) => queue.fail(e),
    );
  const handle = Promise.resolve(queue as AsyncIterableIterator<unknown>) as Promise<AsyncIterableIterator<unknown>> &
    AsyncIterableIterator<unknown>;
  handle.next = () => queue.next();
  handle.return = () => queue.return();
  handle[Symbol.asyncIterator] = () => queue;
  return handle;
}
