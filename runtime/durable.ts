/**
 * Durable execution (reference §1.12–§1.13, §5): loading and restoring checkpoints, saving checkpoints and
 * pending writes in order, pending-write replay, durable subgraph runs, and the state inspection behind
 * getState/updateState. The superstep loop (loop.ts) reaches this module only through `run.d`
 * (`DurableHooks`, contracts.ts), which is set when a run has a checkpointer; it is installed when a saver is
 * constructed, so a program that never makes one never bundles it.
 */
import { isCommand } from "./command.ts";
import { applyNull } from "./command-input.ts";
import { restoreChannels, saveChannels } from "./channels.ts";
import { GraphInterrupt, GraphValueError, InvalidUpdateError } from "./errors.ts";
import { NULL_TASK_ID, checkpointId, checkpointTs, hashHex } from "./ids.ts";
import type {
  Checkpoint,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointSource,
  CheckpointTuple,
  RunnableConfig,
  SaverNow,
} from "./checkpoint/types.ts";
import type { Loop, LoopTask, Outcome } from "./loop.ts";
import { langGraphOrder, toWire } from "./results.ts";
import type { TaskUpdate, Values } from "./spec.ts";
import { END, START, Send } from "./spec.ts";
import { M_CHECKPOINTS, M_DEBUG } from "./stream.ts";
import { PULL, Task } from "./task.ts";
import { ownKeys, processReturn } from "./writes.ts";
import { SaveQueue } from "./save-queue.ts";
import { CheckpointState } from "./checkpoint-state.ts";
import { visible } from "./stream-events.ts";
import { multitaskOf, withThread } from "./thread-lock.ts";
import { isRecord } from "./objects.ts";

/** A loop's checkpoint state: one queue of saver calls per run, shared by every subgraph level. */
export function checkpointState(parent: CheckpointState | undefined): CheckpointState {
  return new CheckpointState(parent ? parent.saves : new SaveQueue());
}

export function beginResume(loop: Loop): void | Promise<unknown> {
  const cp = loop.cp!;
  loop.armed = false;
  if (loop.isRoot) loop.run.resuming = true;
  loop.sawOutput = true;
  loop.emitValues();
  if (cp.timeTravel && cp.metadata && cp.metadata.source !== "update" && cp.metadata.source !== "fork") {
    return loop.putCheckpoint("fork");
  }
}

/** `ctx.interrupt(value)`: the stored answer of this call on resume, else the run stops here (reference §1.12) */
export function interrupt(task: LoopTask, value: unknown): unknown {
  const loop = task.loop;
  const i = task.interruptCount ?? 0;
  task.interruptCount = i + 1;
  if (task.resumes && i < task.resumes.length) return task.resumes[i];
  const id = hashHex(task.namespace.join("|"));
  const r = loop.run.resume;
  let found = false;
  let v: unknown;
  if (r.map && id in r.map) {
    v = r.map[id];
    delete r.map[id];
    found = true;
  } else if (r.hasValue) {
    v = r.value;
    r.hasValue = false;
    r.value = undefined;
    found = true;
  }
  if (found) {
    (task.resumes ??= []).push(v);
    loop.putWrites(task, [["__resume__", task.resumes.slice()]]);
    return v;
  }
  throw new GraphInterrupt([{ id, value }], { graph: task.graph, node: task.cn.name });
}

const SPECIAL = new Set(["__no_writes__", "__error__", "__interrupt__", "__resume__", "__scheduled__"]);

/**
 * A run with a checkpointer: take the thread (one run per thread, thread-lock.ts), load its state, take the
 * input, run; queued saves are awaited on every exit, then the thread is given back.
 */
export function start(loop: Loop, input: unknown): Promise<Outcome> {
  const { run } = loop;
  const graph = loop.c.spec.name;
  return withThread(run.saver!, run.threadId!, multitaskOf(graph, run.multitask), graph, run.signal, () => startLocked(loop, input));
}

function startLocked(loop: Loop, input: unknown): Promise<Outcome> {
  const cp = loop.cp!;
  return load(loop, loop.opts.checkpointId)
    .then(() => {
      if (cp.timeTravel) loop.run.replay = { from: cp.cpId, at: checkpointId(-1) };
    })
    .then(() => loop.takeInput(input))
    .then(() => loop.drive())
    .catch((e: unknown) =>
      flush(loop).then(
        () => Promise.reject(e),
        () => Promise.reject(e),
      ),
    );
}

/** A new input on a thread with unfinished tasks cancels them (reference §1.1). */
export function discardPending(loop: Loop): void {
  const ch = loop.ch;
  for (const t of loop.prepare()) ch.consume(t);
  ch.clearActive();
  ch.sends = [];
  loop.cp!.pending = [];
}

/** exit durability: persist the last checkpoint and its writes; every mode: wait for queued saves. */
export function flush(loop: Loop): Promise<unknown> {
  const cp = loop.cp!;
  const saver = loop.run.saver!;
  const u = cp.unsaved;
  if (u) {
    cp.unsaved = undefined;
    cp.storedConfig = configOf(loop, u.checkpoint.id);
    enqueue(loop, () => putCheckpointNow(saver, u.parentCfg, u.checkpoint, u.metadata, u.newVersions));
  }
  if (cp.writeBuf.length > 0) {
    // writes buffered by exit durability belong to the newest checkpoint (saved above, or loaded)
    const writes = cp.writeBuf;
    cp.writeBuf = [];
    const cfg = cp.cpConfig!;
    for (const [tid, w] of writes) enqueue(loop, () => putWritesNow(saver, cfg, w, tid));
  }
  return cp.saves.settled();
}

function enqueue(loop: Loop, op: () => Promise<unknown> | undefined): void {
  loop.cp!.saves.enqueue(op);
}

/** `saver.put`, or its SaverNow form (undefined once stored synchronously: nothing for the queue to await) */
function putCheckpointNow(
  saver: CheckpointSaver & Partial<SaverNow>,
  ...args: Parameters<SaverNow["putNow"]>
): Promise<unknown> | undefined {
  return saver.putNow ? saver.putNow(...args) : saver.put(...args);
}

function putWritesNow(
  saver: CheckpointSaver & Partial<SaverNow>,
  ...args: Parameters<SaverNow["putWritesNow"]>
): Promise<unknown> | undefined {
  return saver.putWritesNow ? saver.putWritesNow(...args) : saver.putWrites(...args);
}

/** Pending writes saved for these task ids in an earlier run: finished tasks are not run again. */
export function attachPending(loop: Loop, tasks: LoopTask[]): LoopTask[] {
  const cp = loop.cp!;
  if (cp.pending.length === 0) return tasks;
  const byId = new Map<string, LoopTask>();
  for (const t of tasks) byId.set(t.id, t);
  const restored = new Set<LoopTask>();
  for (const [tid, ch, v] of cp.pending) {
    const t = byId.get(tid);
    if (!t) continue;
    if (ch === "__resume__") {
      if (!cp.timeTravel) t.resumes = (v as unknown[]).slice();
    } else if (ch === "__interrupt__" || ch === "__error__") {
      // the task re-runs
    } else if (!cp.timeTravel) {
      restored.add(t);
      restoreWrite(loop, t, ch, v);
    }
  }
  for (const t of restored) t.cached = true;
  return tasks;
}

export function restoreWrite(loop: Loop, t: LoopTask, ch: string, v: unknown): void {
  if (ch === "__no_writes__") return;
  if (ch.startsWith("branch:to:")) {
    const n = loop.c.byName.get(ch.slice(10));
    if (n) (t.trig ??= []).push(n);
  } else if (ch.startsWith("join:")) {
    const j = loop.c.joinByKey.get(ch);
    if (j !== undefined) t.joinW = t.joinW === undefined ? [j] : [...t.joinW, j];
  } else if (ch === "__pregel_tasks") {
    const p = v as { node: string; arg: unknown };
    (t.sends ??= []).push(new Send(p.node, p.arg));
  } else if (!SPECIAL.has(ch)) {
    t.addUpdate({ [ch]: v });
  }
}

/**
 * A stateful subgraph in a replayed run: its newest checkpoint may come from a later stretch of the thread
 * than the root checkpoint being replayed (saved after it, before this run). The child then starts from its
 * state as of that root checkpoint (LangGraph's behaviour): the newest of its checkpoints saved under an older
 * root checkpoint (`parents[""]`). Checkpoint ids sort by creation.
 */
async function asOfReplay(loop: Loop): Promise<void> {
  const cp = loop.cp!;
  const replay = loop.run.replay;
  const root = cp.metadata?.parents[""];
  if (!replay || root === undefined || root < replay.from || root >= replay.at) return;
  for await (const t of loop.run.saver!.list(configOf(loop, undefined))) {
    const r = t.metadata.parents[""];
    // `<`: the checkpoints hung off the replayed one itself are the step being replayed
    if (r !== undefined && r < replay.from) {
      await load(loop, t.checkpoint.id);
      return;
    }
  }
  // nothing as old as the replayed checkpoint: the child had not run yet
  await load(loop, undefined);
  loop.values = loop.c.spec.init();
  cp.hasCheckpoint = false;
}

export async function startChild(loop: Loop, input: Values): Promise<Values | undefined> {
  try {
    return await runAsChild(loop, input);
  } catch (e) {
    if (loop.durable) await flush(loop).catch(() => {});
    throw e;
  }
}

export async function runAsChild(loop: Loop, input: Values): Promise<Values | undefined> {
  const cp = loop.cp!;
  let resume = false;
  if (loop.durable) {
    // replaying from a subgraph's checkpoint: this level starts from the one the config names
    const named = loop.run.checkpointMap?.[loop.ns];
    await load(loop, named);
    if (named === undefined && loop.c.spec.stateful) await asOfReplay(loop);
    // a checkpoint in this task's namespace means the same task is running again: continue it
    resume = cp.hasCheckpoint && (!loop.c.spec.stateful || (loop.run.resuming && loop.prepare().length > 0));
  }
  if (resume) {
    loop.armed = false;
    // a resumed child shows its state as it resumes (as beginResume does for the root)
    loop.sawOutput = true;
  } else {
    const filtered = loop.c.spec.input(input);
    if (cp.hasCheckpoint) discardPending(loop);
    loop.ch.startInput = filtered;
    loop.ch.resetCands();
    loop.tasks = undefined;
    await loop.putCheckpoint("input");
  }
  return loop.childResult(await loop.drive());
}

export function configOf(loop: Loop, id: string | undefined): RunnableConfig {
  const configurable: Record<string, unknown> = { thread_id: loop.run.threadId, checkpoint_ns: loop.ns };
  if (id !== undefined) configurable["checkpoint_id"] = id;
  return { configurable };
}

/** Loads the newest checkpoint of the loop's namespace (or `checkpointId`) into its tables. */
export async function load(loop: Loop, checkpointId: string | undefined, replay = true): Promise<CheckpointTuple | undefined> {
  const cp = loop.cp!;
  const tuple = await loop.run.saver!.getTuple(configOf(loop, checkpointId));
  if (checkpointId !== undefined && !tuple)
    throw new GraphValueError(`Checkpoint "${checkpointId}" not found`, loop.site());
  if (loop.opts.parent) {
    const p = loop.opts.parent;
    cp.parents = { ...p.cp!.parents, [p.ns]: p.cp!.cpId };
  }
  if (!tuple) {
    loop.values = loop.c.spec.init();
    cp.cpId = "";
    loop.setStop();
    return undefined;
  }
  restore(loop, tuple);
  cp.timeTravel = replay && checkpointId !== undefined;
  if (cp.timeTravel) cp.pending = cp.pending.filter((w) => w[1] !== "__resume__");
  const nullWrites = cp.pending.filter((w) => w[0] === NULL_TASK_ID);
  if (nullWrites.length > 0) {
    const nul = new Task(loop, loop.c.start, PULL, 0, undefined, "__input__", -1);
    for (const [, ch, v] of nullWrites) restoreWrite(loop, nul, ch, v);
    applyNull(loop, nul);
  }
  return tuple;
}

/** Rebuilds the loop's tables from a checkpoint tuple. */
export function restore(loop: Loop, tuple: CheckpointTuple): void {
  const cp = loop.cp!;
  const saved = tuple.checkpoint;
  loop.values = restoreChannels(loop.ch, saved.channel_values);
  cp.versions = { ...saved.channel_versions };
  cp.seen = {};
  for (const [n, s] of Object.entries(saved.versions_seen)) cp.seen[n] = { ...s };
  cp.maxV = Math.max(0, ...Object.values(cp.versions));
  cp.savedMaxV = cp.maxV;
  cp.cpId = saved.id;
  cp.cpConfig = tuple.config;
  cp.storedConfig = tuple.config;
  cp.metadata = tuple.metadata;
  // a loop opened on a subgraph's namespace by itself (getState/updateState on a subgraph config) has no
  // parent loop to name the enclosing checkpoints: they are the loaded checkpoint's
  if (!loop.opts.parent) cp.parents = { ...tuple.metadata.parents };
  cp.pending = tuple.pendingWrites ?? [];
  cp.hasCheckpoint = true;
  loop.step = tuple.metadata.step + 1;
  loop.setStop();
  loop.tasks = undefined;
}

/**
 * The state plus the channels. Not `{ ...loop.values }`: V8 gives a spread copy a map outside the transition
 * tree, so adding this step's trigger key (a different one each step) builds new maps every time and every
 * later keyed access on the object misses its caches (~2 µs per checkpoint in W6). Object.assign onto `{}`
 * reuses cached transitions. It would *set* a "__proto__" field, so such a state keeps the spread.
 */
export function checkpointValues(loop: Loop): Record<string, unknown> {
  const values = loop.values;
  const cv: Record<string, unknown> = Object.hasOwn(values, "__proto__")
    ? { ...values }
    : Object.assign({}, values);
  saveChannels(loop.ch, cv);
  return cv;
}

/** Saves a checkpoint of the loop's tables (per durability); `step` is the step it closes. */
export function saveCheckpoint(loop: Loop, source: CheckpointSource, step: number): Promise<unknown> | undefined {
  const cp = loop.cp!;
  if (source === "input" && loop.ch.startInput !== undefined) cp.versions[START] = ++cp.maxV;
  const id = checkpointId(step);
  const channelValues = checkpointValues(loop);
  // versions of the channels present only: a checkpoint stays O(state), not O(nodes ever run)
  const channelVersions: Record<string, number> = {};
  const newVersions: Record<string, number> = {};
  for (const k in channelValues) {
    const v = (cp.versions[k] ??= cp.maxV);
    channelVersions[k] = v;
    if (v > cp.savedMaxV) newVersions[k] = v;
  }
  const checkpoint: Checkpoint = {
    v: 4,
    id,
    ts: checkpointTs(),
    channel_values: channelValues,
    channel_versions: channelVersions,
    // LangGraph keeps every node's entry; only the last step's are needed (default `asNode` of updateState)
    versions_seen: cp.seen,
  };
  const metadata: CheckpointMetadata = { source, step, parents: cp.parents };
  cp.savedMaxV = cp.maxV;
  const prevConfig = cp.hasCheckpoint ? cp.cpConfig : undefined;
  // the previous checkpoint's config names the parent already: no second config object per step
  const exitOnly = loop.run.durability === "exit";
  // with "exit" durability only the last checkpoint of a run is stored: its parent is the one stored before
  const parentCfg = exitOnly
    ? (cp.storedConfig ?? configOf(loop, undefined))
    : (prevConfig ?? configOf(loop, cp.hasCheckpoint ? cp.cpId : undefined));
  cp.cpId = id;
  cp.cpConfig = configOf(loop, id);
  cp.metadata = metadata;
  cp.hasCheckpoint = true;
  cp.timeTravel = false;
  if (exitOnly) {
    cp.unsaved = { parentCfg, checkpoint, metadata, newVersions };
    cp.writeBuf = [];
  } else {
    const saver = loop.run.saver!;
    enqueue(loop, () => putCheckpointNow(saver, parentCfg, checkpoint, metadata, newVersions));
  }
  const sink = loop.run.sink;
  if (sink && sink.modes & (M_CHECKPOINTS | M_DEBUG) && visible(loop, M_CHECKPOINTS)) {
    loop.tasks = loop.prepare();
    const payload = {
      config: { configurable: { checkpoint_ns: loop.ns, thread_id: loop.run.threadId, checkpoint_id: id } },
      values: { ...loop.values },
      metadata,
      next: langGraphOrder(loop.tasks, loop.pullCount).map((t) => t.cn.name),
      tasks: langGraphOrder(loop.tasks, loop.pullCount).map((t) => {
        const state = childConfig(loop, t);
        return { id: t.id, name: t.cn.name, path: t.path, interrupts: [], ...(state ? { state } : {}) };
      }),
      ...(prevConfig ? { parentConfig: prevConfig } : {}),
    };
    if (sink.modes & M_CHECKPOINTS) sink.push(loop.nsArr, "checkpoints", payload);
    if (sink.modes & M_DEBUG)
      sink.push(loop.nsArr, "debug", { step, type: "checkpoint", timestamp: checkpoint.ts, payload });
  }
  if (!exitOnly && loop.run.durability === "sync") return flush(loop);
  return undefined;
}

export function putWritesRaw(loop: Loop, taskId: string, writes: [string, unknown][]): void {
  const cp = loop.cp!;
  if (loop.run.durability === "exit") {
    cp.writeBuf.push([taskId, writes]);
    return;
  }
  const saver = loop.run.saver!;
  const cfg = cp.cpConfig ?? configOf(loop, undefined);
  enqueue(loop, () => putWritesNow(saver, cfg, writes, taskId));
}

/** A task's writes as LangGraph channel writes: fields, triggers, barriers, Sends. */
export function flatWrites(loop: Loop, t: LoopTask): [string, unknown][] {
  const out: [string, unknown][] = [];
  if (t.updates) for (const u of t.updates) for (const k of Object.keys(u.values)) out.push([k, toWire(u.values[k])]);
  if (t.trig) for (const n of t.trig) out.push([n.triggerKey, null]);
  if (t.edgeTrig) for (const n of t.edgeTrig) out.push([n.triggerKey, null]);
  if (t.joinW) for (const j of t.joinW) out.push([loop.c.joins[j]!.key, t.cn.name]);
  if (t.sends) for (const s of t.sends) out.push(["__pregel_tasks", { node: s.node, arg: s.arg }]);
  if (out.length === 0) out.push(["__no_writes__", null]);
  return out;
}

/**
 * A subgraph checkpoint's config carries `checkpoint_map` (every enclosing level's checkpoint id, and its
 * own), as LangGraph's: with it, `invoke(null, config)` replays the thread from this subgraph checkpoint.
 */
export function withCheckpointMap(loop: Loop): RunnableConfig {
  const cp = loop.cp!;
  const cfg = cp.cpConfig!;
  const parents = cp.metadata?.parents;
  if (!parents || Object.keys(parents).length === 0) return cfg;
  const configurable = cfg.configurable!;
  return { ...cfg, configurable: { ...configurable, checkpoint_map: { ...parents, [loop.ns]: configurable.checkpoint_id! } } };
}

/** A subgraph task's child config (its thread and namespace), as snapshots and debug payloads show it. */
export function childConfig(loop: Loop, t: LoopTask): RunnableConfig | undefined {
  const sub = t.cn.spec.subgraph;
  if (!sub) return undefined;
  const ns = sub.stateful ? [...loop.nsArr, t.cn.name].join("|") : t.namespace.join("|");
  return { configurable: { thread_id: loop.run.threadId!, checkpoint_ns: ns } };
}

/** Tasks of the next step with their pending writes attached (without running anything). */
export function peekTasks(loop: Loop): LoopTask[] {
  return (loop.tasks ??= loop.prepare());
}

/** the next step's tasks in LangGraph's listing order (Sends first) */
export function listTasks(loop: Loop): LoopTask[] {
  return langGraphOrder(peekTasks(loop), loop.pullCount);
}

/** A copy of the state with the writes of finished tasks applied (getState without checkpoint_id). */
export function valuesWithPending(loop: Loop, tasks: readonly LoopTask[]): Values {
  const copy = { ...loop.values };
  const ups: TaskUpdate[] = [];
  for (const t of tasks) if (t.cached && t.updates) ups.push(...t.updates);
  if (ups.length > 0) loop.c.spec.apply(copy, ups);
  return copy;
}

/** One update of a superstep: `values` as if node `asNode` had returned them. */
export interface NodeUpdate {
  values: unknown;
  asNode: string;
}

const ALONE: Readonly<Record<string, string>> = {
  [END]: "Cannot apply multiple updates when clearing state",
  __copy__: "Cannot copy checkpoint with multiple updates",
  __input__: "Cannot apply multiple updates when updating as input",
};

/**
 * `updateState` / one superstep of `bulkUpdateState`: runs each update's node writers on its values as
 * one superstep (in the given order, so later updates fold after earlier ones) and saves an "update"
 * checkpoint. END with `null` drops unfinished tasks; "__copy__" forks (with `[[values, asNode], …]` it
 * then applies those as the forked step's task results); "__input__" saves new input for the next run.
 */
export async function update(loop: Loop, updates: readonly NodeUpdate[], loadedParent?: RunnableConfig): Promise<RunnableConfig> {
  const cp = loop.cp!;
  if (updates.length > 1) {
    for (const u of updates) if (ALONE[u.asNode] !== undefined) throw new InvalidUpdateError(ALONE[u.asNode]!, loop.site());
  }
  const { values, asNode } = updates[0]!;
  if (asNode === END) {
    const tasks = peekTasks(loop).filter((t) => t.cached);
    // unfinished tasks are dropped; finished ones keep their writes
    for (const t of peekTasks(loop)) if (!t.cached && t.joinTrigger >= 0) loop.ch.consumeJoin(t.joinTrigger);
    if (values !== null && values !== undefined) {
      throw new InvalidUpdateError("updateState as END takes no values", loop.site());
    }
    loop.apply(tasks.length > 0 ? tasks : [new Task(loop, loop.c.start, PULL, 0, undefined, "__interrupt__", -1)]);
  } else if (asNode === "__copy__") {
    if (!cp.hasCheckpoint) throw new InvalidUpdateError("Cannot copy a non-existent checkpoint", loop.site());
    // a fork: the same state under a new checkpoint, a sibling of the copied one (LangGraph: a child of
    // its parent, so the copy does not look like a step after it)
    loop.tasks = undefined;
    cp.pending = [];
    if (loadedParent) cp.cpConfig = loadedParent;
    else cp.hasCheckpoint = false;
    await loop.putCheckpoint("fork");
    const results = copyResults(values);
    if (results.length === 0) {
      await flush(loop);
      return withCheckpointMap(loop);
    }
    // the supplied results stand for the forked step's tasks (saved as their writes, by the tasks' ids, as
    // LangGraph does); applied as that step, so the tasks do not run
    const prepared = peekTasks(loop).slice();
    const tasks = await updateTasks(loop, results);
    for (const t of tasks) {
      const i = prepared.findIndex((p) => p.cn === t.cn);
      if (i < 0) continue;
      putWritesRaw(loop, prepared[i]!.id, flatWrites(loop, t));
      prepared.splice(i, 1);
    }
    loop.apply(tasks);
  } else if (asNode === "__input__") {
    // as LangGraph: the input is saved for START to apply when the thread runs next (`next: ["__start__"]`)
    const input = loop.c.spec.input(values);
    if (Object.keys(input).length === 0) throw new InvalidUpdateError("Received no input writes for updateState as __input__", loop.site());
    loop.ch.startInput = input;
    loop.tasks = undefined;
    cp.pending = [];
    await loop.putCheckpoint("input");
    await flush(loop);
    return withCheckpointMap(loop);
  } else {
    loop.apply(await updateTasks(loop, updates));
  }
  loop.tasks = undefined;
  cp.pending = [];
  // an update on an empty thread is its step 0 (LangGraph: the missing checkpoint counts as step -1)
  if (!cp.hasCheckpoint && loop.step < 0) loop.step = 0;
  await loop.putCheckpoint("update");
  await flush(loop);
  return withCheckpointMap(loop);
}

/** Each update as the task of its node that returned those values (its edges and routers run too). */
async function updateTasks(loop: Loop, updates: readonly NodeUpdate[]): Promise<LoopTask[]> {
  const tasks: LoopTask[] = [];
  for (const u of updates) {
    const n = u.asNode === START ? loop.c.start : loop.c.byName.get(u.asNode);
    if (!n) throw new InvalidUpdateError(`Node "${u.asNode}" does not exist`, loop.site());
    const t = new Task(loop, n, PULL, 0, undefined, "__interrupt__", -1);
    // values written as START have no node whose check applies: the graph's own update check
    const v = u.values;
    if (u.asNode === START && isRecord(v) && !isCommand(v))
      loop.c.spec.checkUpdate?.(ownKeys(v as Values));
    const r = processReturn(t, v);
    if (r) await r;
    tasks.push(t);
  }
  return tasks;
}

/** `[[values, asNode], …]` given with "__copy__" (LangGraph's copy with task results); anything else: none */
function copyResults(values: unknown): NodeUpdate[] {
  if (!Array.isArray(values) || values.length === 0) return [];
  if (!values.every((v) => Array.isArray(v) && v.length === 2 && typeof v[1] === "string")) return [];
  return (values as [unknown, string][]).map(([v, n]) => ({ values: v, asNode: n }));
}

/** The node that wrote last (LangGraph's default `asNode`), from versions_seen. */
export function lastNode(loop: Loop): string {
  if (loop.c.nodes.length === 1) return loop.c.nodes[0]!.name;
  let best: string | undefined;
  let bestV = -1;
  let tie = false;
  for (const [name, s] of Object.entries(loop.cp!.seen)) {
    if (!loop.c.byName.has(name)) continue;
    const v = Math.max(-1, ...Object.values(s));
    if (v > bestV) {
      bestV = v;
      best = name;
      tie = false;
    } else if (v === bestV) tie = true;
  }
  if (best === undefined) return START;
  if (tie) throw new InvalidUpdateError('Ambiguous update, specify "asNode"', loop.site());
  return best;
}
