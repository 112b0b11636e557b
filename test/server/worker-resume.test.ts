/**
 * A retried run resumes its thread unless the thread had finished (server/worker.ts `threadFinished`). A worker
 * killed after a step's writes were stored and before the next checkpoint leaves a latest checkpoint whose every
 * task has its writes: `next` is empty there (as LangGraph's getState gives it), but the graph has not finished.
 * The Postgres cluster test's SIGKILL case once saw such a retry end "success" on half a state.
 */
import { describe, expect, it } from "vitest";
import { CompiledGraph, MemorySaver, type CheckpointTuple } from "../../runtime/index.ts";
import { threadFinished } from "../../server/worker.ts";
import { countNode, countSpec } from "../runtime/count-spec.ts";

const graph = new CompiledGraph(countSpec("Chain", [countNode("Chain", "a", ["b"]), countNode("Chain", "b", [])]));

/** A thread "u" in a new saver whose latest checkpoint is `tuple`, with its stored writes. */
async function threadAt(tuple: CheckpointTuple): Promise<MemorySaver> {
  const saver = new MemorySaver();
  const config = await saver.put({ configurable: { thread_id: "u", checkpoint_ns: "" } }, tuple.checkpoint, tuple.metadata!, {});
  const byTask = new Map<string, [string, unknown][]>();
  for (const [task, channel, value] of tuple.pendingWrites ?? []) byTask.set(task, [...(byTask.get(task) ?? []), [channel, value]]);
  for (const [task, writes] of byTask) await saver.putWrites(config, writes, task);
  return saver;
}

describe("a retried run's thread", () => {
  it("has not finished while its latest checkpoint has tasks, even when every task's writes are stored", async () => {
    const saver = new MemorySaver();
    await graph.invoke({ count: 5 }, { configurable: { thread_id: "t" }, checkpointer: saver });
    const history: CheckpointTuple[] = [];
    for await (const t of saver.list({ configurable: { thread_id: "t" } })) history.push(t);
    const steps = history.map((t) => t.metadata?.step);
    expect(steps).toEqual([2, 1, 0, -1]);
    for (const tuple of history.slice(1)) {
      // every checkpoint before the last has its step's writes stored: a worker killed right after them
      expect(tuple.pendingWrites?.length).toBeGreaterThan(0);
      const killed = graph.withConfig({ checkpointer: await threadAt(tuple) });
      const state = await killed.getState({ configurable: { thread_id: "u" } });
      expect(state.next).toEqual([]); // what the worker used to read as "finished"
      expect(await threadFinished(killed, "u")).toBe(false);
      // and resuming finishes the run as if undisturbed
      expect(await killed.invoke(null, { configurable: { thread_id: "u" } })).toEqual({ count: 7, log: ["a", "b"] });
    }
  });

  it("has finished when its latest checkpoint is the graph's end", async () => {
    const saver = new MemorySaver();
    await graph.invoke({ count: 0 }, { configurable: { thread_id: "t" }, checkpointer: saver });
    expect(await threadFinished(graph.withConfig({ checkpointer: saver }), "t")).toBe(true);
  });
});
