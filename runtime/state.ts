/**
 * getState, getStateHistory and updateState of a compiled graph (reference §5): a loop rebuilt from a saved
 * checkpoint, inspected without running anything. Installed with checkpointing (install.ts), which a
 * saver installs when it is constructed.
 */
import type { CheckpointSaver, RunnableConfig } from "./checkpoint/types.ts";
import * as durable from "./durable.ts";
import { GraphInputError, InvalidUpdateError, missingCheckpointer } from "./errors.ts";
import type { Interrupt } from "./errors.ts";
import type { Configurable, RunConfig, StateSnapshot, StateTask } from "./config.ts";
import { saverOf, type GraphHandle } from "./features.ts";
import { Loop } from "./loop.ts";
import { taskResult } from "./results.ts";
import type { GraphSpec } from "./spec.ts";
import { START } from "./spec.ts";
import { checkConfigIds } from "./config-ids.ts";
import { inFieldOrder } from "./field-order.ts";
import { multitaskOf, withThread } from "./thread-lock.ts";

function saverFor(graph: GraphHandle, config: RunConfig | RunnableConfig | undefined): CheckpointSaver {
  const saver = saverOf(graph, config);
  if (!saver) throw missingCheckpointer({ graph: graph.spec.name });
  return saver;
}

/** The spec of the graph that owns checkpoint namespace `ns` ("" = this graph). */
function specForNs(graph: GraphHandle, ns: string): GraphSpec {
  let spec = graph.spec;
  if (ns === "") return spec;
  for (const seg of ns.split("|")) {
    const name = seg.split(":")[0]!;
    const node = spec.nodes.find((n) => n.name === name);
    if (!node?.subgraph)
      throw new GraphInputError(`No subgraph for checkpoint namespace "${ns}" in graph "${graph.spec.name}"`, {
        graph: graph.spec.name,
        node: name,
      });
    spec = node.subgraph;
  }
  return spec;
}

function inspectLoop(graph: GraphHandle, config: RunnableConfig | RunConfig): Loop {
  const saver = saverFor(graph, config);
  const configurable = (config.configurable ?? {}) as Configurable;
  const ns = configurable.checkpoint_ns ?? "";
  const run = graph.makeRun({ ...(config as RunConfig), checkpointer: saver }, undefined, undefined);
  return new Loop(specForNs(graph, ns), run, { nsArr: ns === "" ? [] : ns.split("|") });
}

export async function getState(graph: GraphHandle, given: RunnableConfig | RunConfig, options: { subgraphs?: boolean } = {}): Promise<StateSnapshot> {
  const config = checkConfigIds(given, graph.spec.name);
  const loop = inspectLoop(graph, config);
  const cpId = (config.configurable as Configurable | undefined)?.checkpoint_id;
  const tuple = await durable.load(loop, cpId, false);
  if (!tuple) {
    return {
      values: {},
      next: [],
      tasks: [],
      metadata: undefined,
      config: config as RunnableConfig,
      createdAt: undefined,
      parentConfig: undefined,
    };
  }
  return snapshot(graph, loop, tuple.checkpoint.ts, tuple.parentConfig, cpId === undefined, options.subgraphs === true);
}

export async function* getStateHistory(
  graph: GraphHandle,
  given: RunnableConfig | RunConfig,
  givenOptions: { limit?: number; before?: RunnableConfig; filter?: Record<string, unknown> } = {},
): AsyncGenerator<StateSnapshot> {
  const config = checkConfigIds(given, graph.spec.name);
  const { before } = givenOptions;
  const options = before === undefined ? givenOptions : { ...givenOptions, before: checkConfigIds(before, graph.spec.name) };
  const saver = saverFor(graph, config);
  const configurable = (config.configurable ?? {}) as Configurable;
  const listCfg: RunnableConfig = {
    configurable: { ...configurable, checkpoint_ns: configurable.checkpoint_ns ?? "" },
  };
  for await (const tuple of saver.list(listCfg, options)) {
    const loop = inspectLoop(graph, config);
    durable.restore(loop, tuple);
    yield await snapshot(graph, loop, tuple.checkpoint.ts, tuple.parentConfig, false, false);
  }
}

async function snapshot(
  graph: GraphHandle,
  loop: Loop,
  createdAt: string,
  parentConfig: RunnableConfig | undefined,
  applyPending: boolean,
  subgraphs: boolean,
): Promise<StateSnapshot> {
  const cp = loop.cp!;
  const tasks = durable.listTasks(loop);
  const pending = cp.pending;
  const out: StateTask[] = [];
  for (const t of tasks) {
    const st: StateTask = { id: t.id, name: t.name, path: t.path, interrupts: [] };
    for (const [tid, ch, v] of pending) {
      if (tid !== t.id) continue;
      if (ch === "__interrupt__") st.interrupts.push(...(v as Interrupt[]));
      else if (ch === "__error__") st.error = v;
    }
    if (t.cached) st.result = taskResult(t.updates);
    const childCfg = durable.childConfig(loop, t);
    if (childCfg) {
      st.state = subgraphs
        ? await getState(graph, { ...childCfg, checkpointer: loop.run.saver! } as RunConfig, { subgraphs: true })
        : childCfg;
    }
    out.push(st);
  }
  const values = inFieldOrder(loop.c.spec, applyPending ? durable.valuesWithPending(loop, tasks) : loop.values);
  return {
    values,
    next: (applyPending ? tasks.filter((t) => !t.cached) : tasks).map((t) => t.name),
    tasks: out,
    // as LangGraph's snapshots: the stored metadata plus the thread it belongs to
    metadata: cp.metadata && { ...cp.metadata, thread_id: loop.run.threadId },
    config: durable.withCheckpointMap(loop),
    createdAt,
    parentConfig,
  };
}


/**
 * Writes `values` as if node `asNode` had returned them (its edges and routers run too) and saves an
 * "update" checkpoint. `asNode` END with `null` drops unfinished tasks; "__copy__" forks; "__input__" is
 * new input. Returns the new checkpoint's config.
 */
export async function updateState(graph: GraphHandle, given: RunnableConfig | RunConfig, values: unknown, asNode?: string): Promise<RunnableConfig> {
  const config = checkConfigIds(given, graph.spec.name);
  // a write like a run's: it takes the thread too, so it cannot fork a run in progress (or another update)
  return onThread(graph, config, () => applyUpdate(graph, config, values, asNode));
}

/** Runs `body` holding the config's thread (multitask: reject or enqueue), as a run does. */
function onThread<T>(graph: GraphHandle, config: RunnableConfig | RunConfig, body: () => Promise<T>): Promise<T> {
  const { run } = inspectLoop(graph, config);
  const name = graph.spec.name;
  return withThread(run.saver!, run.threadId!, multitaskOf(name, run.multitask), name, (config as RunConfig).signal, body);
}

/** One update superstep (the thread is held by the caller). */
async function applyUpdate(graph: GraphHandle, config: RunnableConfig | RunConfig, values: unknown, asNode?: string): Promise<RunnableConfig> {
  const loop = inspectLoop(graph, config);
  const cpId = (config.configurable as Configurable | undefined)?.checkpoint_id;
  const tuple = await durable.load(loop, cpId, false);
  const node = asNode ?? (tuple ? durable.lastNode(loop) : START);
  return durable.update(loop, [{ values, asNode: node }], tuple?.parentConfig);
}

/** One superstep of `bulkUpdateState`: its updates are applied together, as one step. */
export interface StateUpdateStep {
  updates: readonly { values: unknown; asNode?: string }[];
}

/**
 * Applies several supersteps of updates, each saved as its own checkpoint on top of the previous one
 * (LangGraph's bulkUpdateState), holding the thread throughout. Within a superstep several nodes may write
 * (each update needs `asNode`). Returns the last checkpoint's config.
 */
export async function bulkUpdateState(
  graph: GraphHandle,
  given: RunnableConfig | RunConfig,
  supersteps: readonly StateUpdateStep[],
): Promise<RunnableConfig> {
  const config = checkConfigIds(given, graph.spec.name);
  if (supersteps.length === 0) throw new InvalidUpdateError("No supersteps provided", { graph: graph.spec.name });
  if (supersteps.some((s) => s.updates.length === 0)) throw new InvalidUpdateError("No updates provided", { graph: graph.spec.name });
  if (supersteps.some((s) => s.updates.length > 1 && s.updates.some((u) => u.asNode === undefined))) {
    throw new InvalidUpdateError('"asNode" is required when applying multiple updates', { graph: graph.spec.name });
  }
  return onThread(graph, config, async () => {
    let current: RunnableConfig | RunConfig = config;
    for (const step of supersteps) {
      const at = { ...config, ...current } as RunConfig;
      if (step.updates.length === 1) {
        current = await applyUpdate(graph, at, step.updates[0]!.values, step.updates[0]!.asNode);
        continue;
      }
      const loop = inspectLoop(graph, at);
      await durable.load(loop, (current.configurable as Configurable | undefined)?.checkpoint_id, false);
      current = await durable.update(loop, step.updates as { values: unknown; asNode: string }[]);
    }
    return current as RunnableConfig;
  });
}
