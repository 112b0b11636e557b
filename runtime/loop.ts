/**
 * The superstep loop of one graph level (LangGraph's PregelLoop + runner, reference §1).
 *
 * Channel model: data fields live in `values` (merged by the spec's generated `apply`); the loop's own
 * channels are kept as flat tables: `trig[node]` (LangGraph's `branch:to:X`, ephemeral except for deferred
 * nodes), `joinSeen[j]` (the `join:a+b:c` barriers), `sends` (`__pregel_tasks`) and `startInput`
 * (`__start__`). Versions are only tracked when a checkpointer is present.
 *
 * Fast path: a step whose tasks are all plain synchronous nodes runs without a single await; `drive()`
 * only turns asynchronous when a node, a router or the checkpointer returns a promise.
 */
import { Command, gotoList, isCommand } from "./command.ts";
import type { CNode, Compiled } from "./compiled.ts";
import { compile } from "./compiled.ts";
import {
  EmptyInputError,
  GraphAbortError,
  GraphError,
  GraphInterrupt,
  GraphRecursionError,
  GraphValueError,
  InvalidUpdateError,
  MultipleErrors,
  NodeError,
  ParentCommand,
} from "./errors.ts";
import type { Interrupt } from "./errors.ts";
import { NULL_TASK_ID, checkpointId, checkpointTs, isInterruptId } from "./ids.ts";
import type {
  Checkpoint,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointSource,
  CheckpointTuple,
  PendingWrite,
  RunnableConfig,
} from "./checkpoint/types.ts";
import type { GraphSpec, TaskUpdate, Values } from "./spec.ts";
import { END, START, Send } from "./spec.ts";
import type { Sink, StreamMode } from "./stream.ts";
import { M_CHECKPOINTS, M_CUSTOM, M_DEBUG, M_MESSAGES, M_TASKS, M_UPDATES, M_VALUES } from "./stream.ts";
import { PULL, PUSH, Task } from "./task.ts";
import { SaveQueue } from "./save-queue.ts";
import { runWithPolicy } from "./policy.ts";
import { langGraphOrder, taskResult, taskUpdate, toWire } from "./results.ts";
import { isThenable, processCommand, processReturn } from "./writes.ts";

export type Durability = "sync" | "async" | "exit";

export interface ResumeState {
  hasValue: boolean;
  value: unknown;
  map: Record<string, unknown> | undefined;
}

/** Shared by every level of one run (root and subgraphs). */
export interface Run {
  readonly saver: CheckpointSaver | undefined;
  readonly threadId: string | undefined;
  readonly durability: Durability;
  readonly signal: AbortSignal | undefined;
  readonly sink: Sink | undefined;
  readonly resume: ResumeState;
  readonly maxConcurrency: number;
  readonly varsOverride: Values;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly recursionLimit: number | undefined;
  /** the root was called with null or a resume Command: subgraphs continue from their checkpoints */
  resuming: boolean;
  readonly cache: Map<string, { expires: number; record: WriteRecord }>;
}

/** A finished task's writes, as cached and as restored from pending writes. */
export interface WriteRecord {
  updates: TaskUpdate[] | undefined;
  trig: CNode[] | undefined;
  joinW: number[] | undefined;
  sends: Send[] | undefined;
}

export type Outcome = { interrupted: false } | { interrupted: true; interrupts: Interrupt[] };

const DONE: Outcome = { interrupted: false };
const NONE: string[] = [];
const RUNNING = Symbol("running");
const NO_JOINS: Set<string>[] = [];
const NO_FIN: boolean[] = [];
const NO_NAMES: ReadonlySet<string> = new Set();
const NO_NS: readonly string[] = [];
const SPECIAL = new Set(["__no_writes__", "__error__", "__interrupt__", "__resume__", "__scheduled__"]);

export interface LoopOptions {
  parent?: Loop;
  /** a subgraph's finished steps count as progress of the parent task (idle timeouts) */
  progress?: () => void;
  /** namespace segments of this graph ([] for the root), or how to compute them when first needed */
  nsArr?: readonly string[] | (() => readonly string[]);
  /** root only: load this checkpoint (time travel) */
  checkpointId?: string;
  /** root only: per-call breakpoints */
  interruptBefore?: readonly string[] | undefined;
  interruptAfter?: readonly string[] | undefined;
}

export class Loop {
  readonly c: Compiled;
  private _nsArr: readonly string[] | (() => readonly string[]);
  private _ns: string | undefined;
  readonly vars: Values;
  readonly durable: boolean;
  values: Values = {};
  step = -1;
  stop = 0;

  private readonly trig: Uint8Array;
  private readonly trigFin: Uint8Array;
  /** non-deferred nodes whose trigger is set (cleared after the next step); buffers reused across steps */
  private readonly active: CNode[] = [];
  private activeN = 0;
  private readonly joinSeen: Set<string>[];
  private readonly joinFin: boolean[];
  private sends: Send[] = [];
  startInput: Values | undefined;
  /** candidate nodes for the next step (`candN` of `candBuf`), or every node when `scanAll` */
  private readonly candBuf: CNode[] = [];
  private candN = 0;
  private scanAll = false;
  private tasks: Task[] | undefined;
  private pullCount = 0;
  private stepController: AbortController | undefined;
  private unlinkStep: (() => void) | undefined;
  private readonly before: ReadonlySet<string>;
  private readonly after: ReadonlySet<string>;
  private armed = true;
  sawOutput = false;
  /** at an interrupt: the state with the finished tasks' writes applied (what `invoke` reports) */
  view: Values | undefined;
  private running: Promise<unknown> | undefined;
  /** the single task whose raw promise `running` is (the common one-task async step) */
  private single: Task | undefined;
  /** some task of the current step failed, interrupted or bubbled */
  private troubled = false;

  // checkpoint state (durable only)
  private hasCheckpoint = false;
  private cpId = "";
  private runId = "";
  private versions: Record<string, number> = {};
  private seen: Record<string, Record<string, number>> = {};
  private maxV = 0;
  private savedMaxV = 0;
  private cpConfig: RunnableConfig | undefined;
  private metadata: CheckpointMetadata | undefined;
  private parents: Record<string, string> = {};
  private pending: PendingWrite[] = [];
  /**
   * One queue per run, shared by every subgraph level: a child's checkpoints are then never saved before the
   * parent checkpoint they hang off (async durability), so a crash cannot leave a subgraph history whose
   * parent checkpoint was never written.
   */
  private readonly saves: SaveQueue;
  private unsaved:
    | {
        parentCfg: RunnableConfig;
        checkpoint: Checkpoint;
        metadata: CheckpointMetadata;
        newVersions: Record<string, number>;
      }
    | undefined;
  private writeBuf: [string, [string, unknown][]][] = [];
  private timeTravel = false;

  constructor(
    spec: GraphSpec,
    readonly run: Run,
    readonly opts: LoopOptions = {},
  ) {
    const c = (this.c = compile(spec));
    this._nsArr = opts.nsArr ?? NO_NS;
    const inherited = opts.parent ? opts.parent.vars : {};
    this.vars = spec.vars(run.varsOverride, inherited, run.env);
    this.durable = run.saver !== undefined;
    this.saves = opts.parent ? opts.parent.saves : new SaveQueue();
    const n = c.nodes.length;
    this.trig = new Uint8Array(n);
    this.trigFin = c.hasDeferred ? new Uint8Array(n) : this.trig;
    this.joinSeen = c.joins.length === 0 ? NO_JOINS : c.joins.map(() => new Set<string>());
    this.joinFin = c.joins.length === 0 ? NO_FIN : c.joins.map(() => false);
    const before = opts.interruptBefore ?? spec.interruptBefore;
    const after = opts.interruptAfter ?? spec.interruptAfter;
    this.before = before.length === 0 ? NO_NAMES : new Set(before);
    this.after = after.length === 0 ? NO_NAMES : new Set(after);
    const limit = run.recursionLimit ?? spec.recursionLimit ?? 25;
    if (!(limit >= 1)) throw new GraphValueError('Passed "recursionLimit" must be at least 1.', { graph: spec.name });
    this.limit = limit;
  }
  private readonly limit: number;

  /** this graph's namespace segments; a subgraph's needs its task id, so it is computed on first use */
  get nsArr(): readonly string[] {
    const a = this._nsArr;
    return typeof a === "function" ? (this._nsArr = a()) : a;
  }

  get ns(): string {
    return (this._ns ??= this.nsArr.join("|"));
  }

  get isRoot(): boolean {
    return this.opts.parent === undefined;
  }

  // ------------------------------------------------------------------------------------------------------
  // entry points

  /** Loads state (with a checkpointer), takes the input, then runs supersteps until done or interrupted. */
  start(input: unknown): Outcome | Promise<Outcome> {
    if (!this.durable) {
      this.values = this.c.spec.init();
      this.setStop();
      const r = this.takeInput(input);
      if (r) return r.then(() => this.drive());
      return this.drive();
    }
    return this.load(this.opts.checkpointId)
      .then(() => this.takeInput(input))
      .then(() => this.drive())
      .catch((e: unknown) =>
        this.flush().then(
          () => Promise.reject(e),
          () => Promise.reject(e),
        ),
      );
  }

  setStop(): void {
    this.stop = this.step + this.limit + 1;
  }

  site(node?: string): { graph: string; node?: string } {
    return node === undefined ? { graph: this.c.spec.name } : { graph: this.c.spec.name, node };
  }

  private takeInput(input: unknown): void | Promise<unknown> {
    const spec = this.c.spec;
    if (isCommand(input)) {
      if (input.graph === Command.PARENT) throw new InvalidUpdateError("There is no parent graph.", this.site());
      const hasResume = input.resume !== undefined && input.resume !== null;
      if (hasResume && !this.run.saver)
        throw new GraphValueError("Cannot use Command(resume=...) without checkpointer", this.site());
      if (!hasResume && input.update === undefined && gotoList(input).length === 0)
        throw new EmptyInputError("Received empty Command input", this.site());
      if (hasResume && this.isRoot) {
        const r = input.resume;
        if (
          typeof r === "object" &&
          r !== null &&
          !Array.isArray(r) &&
          Object.keys(r).length > 0 &&
          Object.keys(r).every(isInterruptId)
        )
          this.run.resume.map = { ...(r as Record<string, unknown>) };
        else {
          this.run.resume.hasValue = true;
          this.run.resume.value = r;
        }
      }
      const nul = new Task(this, this.c.start, PULL, 0, undefined, "__input__", -1);
      processCommand(nul, input, true);
      const writes = this.flatWrites(nul);
      if (nul.updates || nul.trig || nul.sends) {
        this.applyNull(nul);
        if (this.durable) this.putWritesRaw(NULL_TASK_ID, writes);
      }
      if (hasResume) return this.beginResume();
      this.armed = false;
      this.emitValues();
      return this.putCheckpoint("input");
    }
    if (input === null || input === undefined) {
      if (!this.hasCheckpoint) throw new EmptyInputError('Received no input writes for "__start__"', this.site());
      return this.beginResume();
    }
    const filtered = spec.input(input);
    if (this.hasCheckpoint) this.discardPending();
    this.startInput = filtered;
    this.resetCands();
    this.tasks = undefined;
    return this.putCheckpoint("input");
  }

  private beginResume(): void | Promise<unknown> {
    this.armed = false;
    if (this.isRoot) this.run.resuming = true;
    this.sawOutput = true;
    this.emitValues();
    if (this.timeTravel && this.metadata && this.metadata.source !== "update" && this.metadata.source !== "fork") {
      return this.putCheckpoint("fork");
    }
  }

  /** A new input on a thread with unfinished tasks cancels them (reference §1.1). */
  private discardPending(): void {
    for (const t of this.prepare()) {
      if (t.joinTrigger >= 0) this.consumeJoin(t.joinTrigger);
      if (t.cn.defer && t.trigger === t.cn.triggerKey) this.trig[t.cn.idx] = this.trigFin[t.cn.idx] = 0;
    }
    this.clearActive();
    this.sends = [];
    this.pending = [];
  }

  /** Runs supersteps synchronously for as long as nothing returns a promise. */
  drive(): Outcome | Promise<Outcome> {
    for (;;) {
      const r = this.tick();
      if (r === true) continue;
      if (r === false) return this.finish(DONE);
      if (r === RUNNING || isThenable(r)) return this.driveAsync(r);
      return this.finish(r as Outcome);
    }
  }

  private async driveAsync(first: unknown): Promise<Outcome> {
    let r: unknown = first;
    for (;;) {
      if (r === RUNNING) {
        // the step's tasks are running: wait for them, then finish the step
        const t = this.single;
        if (t !== undefined) {
          this.single = undefined;
          let more: Promise<unknown> | undefined;
          try {
            more = this.settle(t, await this.running);
          } catch (e) {
            more = this.fail(t, e);
          }
          if (more) await more;
        } else await this.running;
        this.running = undefined;
        r = this.afterStep(this.tasks!);
      }
      if (isThenable(r)) r = await r;
      if (r === true) {
        r = this.tick();
        continue;
      }
      if (r === RUNNING) continue;
      return this.finish(r === false ? DONE : (r as Outcome));
    }
  }

  private finish(o: Outcome): Outcome | Promise<Outcome> {
    if (!this.durable) return o;
    return this.flush().then(() => o);
  }

  /** exit durability: persist the last checkpoint and its writes; every mode: wait for queued saves. */
  flush(): Promise<unknown> {
    const saver = this.run.saver!;
    const u = this.unsaved;
    if (u) {
      this.unsaved = undefined;
      this.enqueue(() => saver.put(u.parentCfg, u.checkpoint, u.metadata, u.newVersions));
    }
    if (this.writeBuf.length > 0) {
      // writes buffered by exit durability belong to the newest checkpoint (saved above, or loaded)
      const writes = this.writeBuf;
      this.writeBuf = [];
      const cfg = this.cpConfig!;
      for (const [tid, w] of writes) this.enqueue(() => saver.putWrites(cfg, w, tid));
    }
    return this.saves.settled();
  }

  private enqueue(op: () => Promise<unknown>): void {
    this.saves.enqueue(op);
  }

  // ------------------------------------------------------------------------------------------------------
  // one superstep

  /** true: continue; false: done; Outcome: interrupted; RUNNING: await `running`; or a promise of these. */
  private tick(): boolean | Outcome | Promise<boolean | Outcome> | typeof RUNNING {
    const sig = this.run.signal;
    if (sig?.aborted) throw new GraphAbortError(this.site(), sig.reason);
    const tasks = (this.tasks ??= this.prepare());
    if (tasks.length === 0) return false;
    if (this.armed && this.before.size > 0 && this.breakpoint(this.before, tasks)) return this.staticInterrupt();
    const r = this.runTasks(tasks);
    if (r) {
      this.running = r;
      return RUNNING;
    }
    return this.afterStep(tasks);
  }

  private breakpoint(set: ReadonlySet<string>, tasks: readonly Task[]): boolean {
    for (const t of tasks) if (t.cn !== this.c.start && (set.has("*") || set.has(t.cn.name))) return true;
    return false;
  }

  private staticInterrupt(): Outcome {
    this.emitInterrupt([]);
    return { interrupted: true, interrupts: [] };
  }

  private prepare(): Task[] {
    const tasks: Task[] = [];
    if (this.startInput !== undefined) {
      tasks.push(new Task(this, this.c.start, PULL, 0, this.startInput, START, -1));
      this.pullCount = 1;
      return this.attachPending(tasks);
    }
    let cands: readonly CNode[] = this.candBuf;
    let count = this.candN;
    if (this.scanAll) {
      cands = this.c.sorted;
      count = cands.length;
    } else if (count > 1) cands = this.candBuf.slice(0, count).sort((a, b) => a.rank - b.rank);
    let prev: CNode | undefined;
    const values = this.values;
    for (let i = 0; i < count; i++) {
      const n = cands[i]!;
      if (n === prev) continue;
      prev = n;
      let trigger: string | undefined;
      let ji = -1;
      if (this.trig[n.idx] && (!n.defer || this.trigFin[n.idx])) trigger = n.triggerKey;
      else {
        for (const j of n.joinsIn) {
          const cj = this.c.joins[j]!;
          if (this.joinSeen[j]!.size === cj.sources.length && (!cj.deferred || this.joinFin[j])) {
            trigger = cj.key;
            ji = j;
            break;
          }
        }
      }
      if (trigger !== undefined) tasks.push(new Task(this, n, PULL, tasks.length, n.spec.read(values), trigger, ji));
    }
    this.pullCount = tasks.length;
    const sends = this.sends;
    for (let i = 0; i < sends.length; i++) {
      const s = sends[i]!;
      tasks.push(new Task(this, this.c.byName.get(s.node)!, PUSH, i, s.arg, PUSH, -1));
    }
    return this.pending.length > 0 ? this.attachPending(tasks) : tasks;
  }

  /** Pending writes saved for these task ids in an earlier run: finished tasks are not run again. */
  private attachPending(tasks: Task[]): Task[] {
    if (this.pending.length === 0) return tasks;
    const byId = new Map<string, Task>();
    for (const t of tasks) byId.set(t.id, t);
    const restored = new Set<Task>();
    for (const [tid, ch, v] of this.pending) {
      const t = byId.get(tid);
      if (!t) continue;
      if (ch === "__resume__") {
        if (!this.timeTravel) t.resumes = (v as unknown[]).slice();
      } else if (ch === "__interrupt__" || ch === "__error__") {
        // the task re-runs
      } else if (!this.timeTravel) {
        restored.add(t);
        this.restoreWrite(t, ch, v);
      }
    }
    for (const t of restored) t.cached = true;
    return tasks;
  }

  private restoreWrite(t: Task, ch: string, v: unknown): void {
    if (ch === "__no_writes__") return;
    if (ch.startsWith("branch:to:")) {
      const n = this.c.byName.get(ch.slice(10));
      if (n) (t.trig ??= []).push(n);
    } else if (ch.startsWith("join:")) {
      const j = this.c.joinByKey.get(ch);
      if (j !== undefined) (t.joinW ??= []).push(j);
    } else if (ch === "__pregel_tasks") {
      const p = v as { node: string; arg: unknown };
      (t.sends ??= []).push(new Send(p.node, p.arg));
    } else if (!SPECIAL.has(ch)) {
      (t.updates ??= []).push({ node: t.cn.name, values: { [ch]: v } });
    }
  }

  private runTasks(tasks: Task[]): Promise<unknown> | undefined {
    let promises: Promise<unknown>[] | undefined;
    const n = tasks.length;
    if (n === 1 && !this.run.signal) {
      const t = tasks[0]!;
      if (!t.cached && t.cn.plain) {
        // one plain task: hand its raw promise to driveAsync, which settles it (no wrapper promise)
        this.emitTaskStart(t);
        let ret: unknown;
        try {
          ret = t.cn.spec.call(t.input, t);
        } catch (e) {
          return this.fail(t, e);
        }
        if (isThenable(ret)) {
          this.single = t;
          return ret as Promise<unknown>;
        }
        return this.settle(t, ret);
      }
    }
    const limit = this.run.maxConcurrency;
    if (limit < n) return this.runLimited(tasks, limit);
    // LangGraph starts PUSH tasks before PULL tasks
    for (let k = 0; k < n; k++) {
      const t = tasks[(k + this.pullCount) % n]!;
      const r = t.cached ? this.replay(t) : this.exec(t);
      if (r) (promises ??= []).push(r);
    }
    if (!promises) return undefined;
    const all = promises.length === 1 ? promises[0]! : Promise.all(promises);
    const sig = this.run.signal;
    if (!sig) return all;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.stepController?.abort(sig.reason);
        reject(new GraphAbortError(this.site(), sig.reason));
      };
      if (sig.aborted) return onAbort();
      sig.addEventListener("abort", onAbort, { once: true });
      all.then(
        (v) => {
          sig.removeEventListener("abort", onAbort);
          resolve(v);
        },
        (e: unknown) => {
          sig.removeEventListener("abort", onAbort);
          reject(e);
        },
      );
    });
  }

  private async runLimited(tasks: Task[], limit: number): Promise<void> {
    const order = tasks.slice(this.pullCount).concat(tasks.slice(0, this.pullCount));
    let next = 0;
    const worker = async () => {
      while (next < order.length) {
        const t = order[next++]!;
        if (this.run.signal?.aborted) throw new GraphAbortError(this.site(), this.run.signal.reason);
        await (t.cached ? this.replay(t) : this.exec(t));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
  }

  /** a task finished in an earlier run (or cached): emit its update with `cached` metadata */
  private replay(t: Task): undefined {
    this.emitTaskDone(t, true);
    return undefined;
  }

  private exec(t: Task): Promise<unknown> | undefined {
    this.emitTaskStart(t);
    if (!t.cn.plain) return runWithPolicy(t);
    let ret: unknown;
    try {
      ret = t.cn.spec.call(t.input, t);
    } catch (e) {
      return this.fail(t, e);
    }
    if (isThenable(ret)) {
      return (ret as Promise<unknown>).then(
        (r) => this.settle(t, r),
        (e: unknown) => this.fail(t, e),
      );
    }
    return this.settle(t, ret);
  }

  /** processes a node's return value; never throws (errors are recorded on the task) */
  settle(t: Task, ret: unknown): Promise<unknown> | undefined {
    try {
      const r = processReturn(t, ret);
      if (r) {
        return r.then(
          () => this.complete(t),
          (e: unknown) => this.fail(t, e),
        );
      }
      this.complete(t);
    } catch (e) {
      this.fail(t, e);
    }
    return undefined;
  }

  fail(t: Task, e: unknown): Promise<unknown> | undefined {
    this.troubled = true;
    if (e instanceof ParentCommand && e.owner === t) {
      t.resetWrites();
      return this.settle(t, e.command);
    }
    if (e instanceof ParentCommand) {
      t.bubble = e;
      return undefined;
    }
    if (e instanceof GraphInterrupt) {
      t.interrupts = e.interrupts;
      if (this.durable) this.putWrites(t, [["__interrupt__", e.interrupts]]);
      // reported as soon as the task stops, at this level (and again at each enclosing level)
      this.emitInterrupt(e.interrupts);
      this.emitTaskStopped(t);
      return undefined;
    }
    const err = e instanceof GraphError ? e : new NodeError(this.c.spec.name, t.cn.name, e);
    t.error = err;
    this.stepController?.abort(err);
    this.emitTaskStopped(t);
    if (this.durable) {
      const name = e instanceof Error ? e.name : "Error";
      this.putWrites(t, [["__error__", { message: e instanceof Error ? e.message : String(e), name }]]);
    }
    return undefined;
  }

  complete(t: Task): void {
    if (this.durable) this.putWrites(t, this.flatWrites(t));
    this.emitTaskDone(t, false);
  }

  /** the signal handed to nodes: aborted by the run's signal, by a sibling's failure, or by a timeout */
  taskController(): AbortController {
    const ctl = new AbortController();
    const step = this.stepSignal();
    if (step.aborted) ctl.abort(step.reason);
    else step.addEventListener("abort", () => ctl.abort(step.reason), { once: true });
    return ctl;
  }

  /**
   * One controller per step, linked to the run's signal for the step's duration only: a long-lived
   * signal passed to many runs must not collect a listener per task (langchainjs#9201).
   */
  private stepSignal(): AbortSignal {
    if (this.stepController) return this.stepController.signal;
    const c = (this.stepController = new AbortController());
    const sig = this.run.signal;
    if (sig) {
      if (sig.aborted) c.abort(sig.reason);
      else {
        const on = () => c.abort(sig.reason);
        sig.addEventListener("abort", on, { once: true });
        this.unlinkStep = () => sig.removeEventListener("abort", on);
      }
    }
    return c.signal;
  }

  private endStep(): void {
    this.stepController = undefined;
    if (this.unlinkStep) {
      this.unlinkStep();
      this.unlinkStep = undefined;
    }
  }

  // ------------------------------------------------------------------------------------------------------
  // end of step

  private afterStep(tasks: Task[]): boolean | Outcome | Promise<boolean | Outcome> {
    this.endStep();
    let errors: unknown[] | undefined;
    let interrupts: Interrupt[] | undefined;
    if (this.troubled) this.troubled = false;
    else return this.commit(tasks);
    for (const t of tasks) {
      if (t.bubble) throw t.bubble;
      if (t.error !== undefined) (errors ??= []).push(t.error);
      else if (t.interrupts) (interrupts ??= []).push(...t.interrupts);
    }
    if (errors) {
      const err = errors.length === 1 ? errors[0] : new MultipleErrors(this.c.spec.name, this.step, errors);
      if (this.durable) return this.flush().then(() => Promise.reject(err));
      throw err;
    }
    if (interrupts) {
      // as LangGraph: the result shows the finished siblings' writes applied (they stay pending writes)
      let ups: TaskUpdate[] | undefined;
      for (const t of tasks) if (t.error === undefined && !t.interrupts && t.updates) (ups ??= []).push(...t.updates);
      if (ups) {
        const view = { ...this.values };
        this.c.spec.apply(view, ups);
        this.view = view;
        this.sawOutput = true;
        const sink = this.run.sink;
        if (sink && sink.modes & M_VALUES && this.visible(M_VALUES)) sink.push(this.nsArr, "values", { ...view });
      }
      return { interrupted: true, interrupts };
    }
    return this.commit(tasks);
  }

  private commit(tasks: Task[]): boolean | Outcome | Promise<boolean | Outcome> {
    this.apply(tasks);
    this.opts.progress?.();
    this.tasks = undefined;
    const saved = this.putCheckpoint("loop");
    if (saved) return saved.then(() => this.afterApply(tasks));
    return this.afterApply(tasks);
  }

  private afterApply(tasks: Task[]): boolean | Outcome {
    if (this.after.size > 0 && this.breakpoint(this.after, tasks)) return this.staticInterrupt();
    if (this.step > this.stop) throw new GraphRecursionError(this.limit, this.site());
    return true;
  }

  /** Applies a step's writes in LangGraph's order: PULL tasks by name, then PUSH tasks by index. */
  private apply(tasks: readonly Task[]): void {
    const c = this.c;
    const durable = this.durable;
    // one reused buffer of the step's updates, already in LangGraph's order (tasks are sorted)
    let all: TaskUpdate[] | undefined;
    let shared = false;
    for (const t of tasks) {
      const us = t.updates;
      if (us !== undefined) {
        if (all === undefined) {
          all = us;
          shared = true;
        } else {
          if (shared) {
            all = all.slice();
            shared = false;
          }
          for (let i = 0; i < us.length; i++) all.push(us[i]!);
        }
      }
      if (t.joinTrigger >= 0) this.consumeJoin(t.joinTrigger);
      if (t.cn.defer && t.trigger === t.cn.triggerKey) this.trig[t.cn.idx] = this.trigFin[t.cn.idx] = 0;
    }
    // in place: every checkpoint, stream chunk and fresh read holds its own shallow copy of the state
    const values = this.values;
    const written = all !== undefined ? c.spec.apply(values, all) : NONE;
    if (this.startInput !== undefined) this.startInput = undefined;

    // ephemeral triggers live for one step
    const trig = this.trig;
    this.clearActive();
    const active = this.active;
    const cands = this.candBuf;
    this.scanAll = false;
    let candN = 0;
    let next = false;
    let sends: Send[] | undefined;
    const v = durable ? ++this.maxV : 0;
    const seen: Record<string, Record<string, number>> | undefined = durable ? {} : undefined;
    for (const t of tasks) {
      if (seen) (seen[t.cn.name] ??= {})[t.trigger] = this.versions[t.trigger] ?? 0;
      for (let pass = 0; pass < 2; pass++) {
        const ts = pass === 0 ? t.trig : t.edgeTrig;
        if (ts === undefined) continue;
        for (let i = 0; i < ts.length; i++) {
          const n = ts[i]!;
          if (n.defer) {
            trig[n.idx] = 1;
            this.trigFin[n.idx] = 0;
          } else {
            if (!trig[n.idx]) {
              trig[n.idx] = 1;
              active[this.activeN++] = n;
            }
            cands[candN++] = n;
            next = true;
          }
          if (durable) this.versions[n.triggerKey] = v;
        }
      }
      if (t.joinW) {
        for (const j of t.joinW) {
          const cj = c.joins[j]!;
          this.joinSeen[j]!.add(t.cn.name);
          if (durable) this.versions[cj.key] = v;
          if (!cj.deferred && this.joinSeen[j]!.size === cj.sources.length) {
            cands[candN++] = cj.target;
            next = true;
          }
        }
      }
      if (t.sends) {
        if (sends === undefined) sends = t.sends.slice();
        else for (const s of t.sends) sends.push(s);
      }
    }
    if (seen) this.seen = seen;
    if (sends !== undefined || this.sends.length > 0) this.sends = sends ?? [];
    if (c.spec.clearEphemeral) c.spec.clearEphemeral(values);
    // nothing else scheduled: deferred nodes and barriers become available (LangGraph's finish())
    if (!next && c.hasDeferred) {
      for (const n of c.deferred) {
        if (trig[n.idx] && !this.trigFin[n.idx]) {
          this.trigFin[n.idx] = 1;
          cands[candN++] = n;
        }
      }
      c.joins.forEach((cj, j) => {
        if (cj.deferred && !this.joinFin[j] && this.joinSeen[j]!.size === cj.sources.length) {
          this.joinFin[j] = true;
          cands[candN++] = cj.target;
        }
      });
    }
    this.candN = candN;
    if (this.pending.length > 0) this.pending = [];
    if (durable) {
      for (const f of written) this.versions[f] = v;
      if (sends) this.versions["__pregel_tasks"] = v;
    }
    if (written.length > 0) {
      if (!this.sawOutput) {
        const of = c.outputFields;
        if (of === undefined) this.sawOutput = true;
        else for (const f of written) if (of.has(f)) this.sawOutput = true;
      }
      this.emitValues();
    }
    this.armed = true;
  }

  private clearActive(): void {
    for (let i = 0; i < this.activeN; i++) this.trig[this.active[i]!.idx] = 0;
    this.activeN = 0;
  }

  resetCands(): void {
    this.candN = 0;
    this.scanAll = false;
  }

  private consumeJoin(j: number): void {
    this.joinSeen[j]!.clear();
    this.joinFin[j] = false;
  }

  /** Writes given with a Command input (task id NULL_TASK_ID): applied before the pending tasks run. */
  private applyNull(t: Task): void {
    const values = this.values;
    const written = t.updates ? this.c.spec.apply(values, t.updates) : [];
    const v = this.durable ? ++this.maxV : 0;
    for (const f of written) this.versions[f] = v;
    if (written.length > 0) this.sawOutput = true;
    if (t.trig) {
      for (const n of t.trig) {
        if (!this.trig[n.idx]) {
          this.trig[n.idx] = 1;
          if (!n.defer) this.active[this.activeN++] = n;
        }
        if (this.durable) this.versions[n.triggerKey] = v;
      }
    }
    if (t.sends) this.sends = this.sends.concat(t.sends);
    this.scanAll = true;
    this.tasks = undefined;
  }

  // ------------------------------------------------------------------------------------------------------
  // subgraphs

  runChild(task: Task, child: GraphSpec, input: Values): Promise<Values> {
    const nsArr = child.stateful ? () => [...this.nsArr, task.cn.name] : () => task.namespace;
    const loop = new Loop(child, this.run, { parent: this, nsArr, progress: () => task.onProgress?.() });
    if (this.durable) return loop.startChild(input);
    // without a checkpointer a child of sync nodes runs to completion right here
    try {
      loop.values = loop.c.spec.init();
      loop.setStop();
      loop.startInput = loop.c.spec.input(input);
      loop.resetCands();
      loop.putCheckpoint("input");
      const o = loop.drive();
      if (isThenable(o)) return (o as Promise<Outcome>).then((x) => loop.childResult(x));
      return Promise.resolve(loop.childResult(o as Outcome));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  private childResult(o: Outcome): Values {
    if (o.interrupted) throw new GraphInterrupt(o.interrupts, this.site());
    return this.c.spec.output(this.values);
  }

  private async startChild(input: Values): Promise<Values> {
    try {
      return await this.runAsChild(input);
    } catch (e) {
      if (this.durable) await this.flush().catch(() => {});
      throw e;
    }
  }

  private async runAsChild(input: Values): Promise<Values> {
    let resume = false;
    if (this.durable) {
      await this.load(undefined);
      // a checkpoint in this task's namespace means the same task is running again: continue it
      resume = this.hasCheckpoint && (!this.c.spec.stateful || (this.run.resuming && this.prepare().length > 0));
    }
    if (resume) {
      this.armed = false;
    } else {
      const filtered = this.c.spec.input(input);
      if (this.hasCheckpoint) this.discardPending();
      this.startInput = filtered;
      this.resetCands();
      this.tasks = undefined;
      await this.putCheckpoint("input");
    }
    return this.childResult(await this.drive());
  }

  // ------------------------------------------------------------------------------------------------------
  // checkpoints (durable only)

  baseId(): string {
    if (this.durable) return this.cpId;
    // without a checkpointer ids only need to be unique within the run
    return (this.runId ||= Math.random().toString(36).slice(2));
  }

  private cfg(id: string | undefined): RunnableConfig {
    const configurable: Record<string, unknown> = { thread_id: this.run.threadId, checkpoint_ns: this.ns };
    if (id !== undefined) configurable["checkpoint_id"] = id;
    return { configurable };
  }

  /** Loads the newest checkpoint of this namespace (or `checkpointId`) into the loop's tables. */
  async load(checkpointId: string | undefined, replay = true): Promise<CheckpointTuple | undefined> {
    const tuple = await this.run.saver!.getTuple(this.cfg(checkpointId));
    if (checkpointId !== undefined && !tuple)
      throw new GraphValueError(`Checkpoint "${checkpointId}" not found`, this.site());
    if (this.opts.parent) {
      const p = this.opts.parent;
      this.parents = { ...p.parents, [p.ns]: p.cpId };
    }
    if (!tuple) {
      this.values = this.c.spec.init();
      this.cpId = "";
      this.setStop();
      return undefined;
    }
    this.restore(tuple);
    this.timeTravel = replay && checkpointId !== undefined;
    if (this.timeTravel) this.pending = this.pending.filter((w) => w[1] !== "__resume__");
    const nullWrites = this.pending.filter((w) => w[0] === NULL_TASK_ID);
    if (nullWrites.length > 0) {
      const nul = new Task(this, this.c.start, PULL, 0, undefined, "__input__", -1);
      for (const [, ch, v] of nullWrites) this.restoreWrite(nul, ch, v);
      this.applyNull(nul);
    }
    return tuple;
  }

  /** Rebuilds the loop's tables from a checkpoint tuple. */
  restore(tuple: CheckpointTuple): void {
    const cp = tuple.checkpoint;
    const values: Values = {};
    this.trig.fill(0);
    this.trigFin.fill(0);
    this.clearActive();
    for (const s of this.joinSeen) s.clear();
    this.joinFin.fill(false);
    this.sends = [];
    this.startInput = undefined;
    for (const k of Object.keys(cp.channel_values)) {
      const v = cp.channel_values[k];
      if (k.startsWith("branch:to:")) {
        const n = this.c.byName.get(k.slice(10));
        if (!n) continue;
        this.trig[n.idx] = 1;
        if (n.defer) this.trigFin[n.idx] = Array.isArray(v) && v[1] ? 1 : 0;
        else this.active[this.activeN++] = n;
      } else if (k.startsWith("join:")) {
        const j = this.c.joinByKey.get(k);
        if (j === undefined) continue;
        const deferred = this.c.joins[j]!.deferred;
        const seen = (deferred ? (v as [string[], boolean])[0] : (v as string[])) ?? [];
        for (const s of seen) this.joinSeen[j]!.add(s);
        if (deferred) this.joinFin[j] = (v as [string[], boolean])[1] === true;
      } else if (k === "__pregel_tasks") {
        this.sends = (v as { node: string; arg: unknown }[]).map((p) => new Send(p.node, p.arg));
      } else if (k === START) {
        this.startInput = v as Values;
      } else values[k] = v;
    }
    this.values = values;
    this.versions = { ...cp.channel_versions };
    this.seen = {};
    for (const [n, s] of Object.entries(cp.versions_seen)) this.seen[n] = { ...s };
    this.maxV = Math.max(0, ...Object.values(this.versions));
    this.savedMaxV = this.maxV;
    this.cpId = cp.id;
    this.cpConfig = tuple.config;
    this.metadata = tuple.metadata;
    this.pending = tuple.pendingWrites ?? [];
    this.hasCheckpoint = true;
    this.step = tuple.metadata.step + 1;
    this.setStop();
    this.scanAll = true;
    this.tasks = undefined;
  }

  private checkpointValues(): Record<string, unknown> {
    const cv: Record<string, unknown> = { ...this.values };
    for (let i = 0; i < this.activeN; i++) cv[this.active[i]!.triggerKey] = null;
    for (const n of this.c.deferred) if (this.trig[n.idx]) cv[n.triggerKey] = [null, this.trigFin[n.idx] === 1];
    this.c.joins.forEach((cj, j) => {
      const s = this.joinSeen[j]!;
      if (s.size > 0) cv[cj.key] = cj.deferred ? [[...s], this.joinFin[j]] : [...s];
    });
    if (this.sends.length > 0) cv["__pregel_tasks"] = this.sends.map((s) => ({ node: s.node, arg: s.arg }));
    if (this.startInput !== undefined) cv[START] = this.startInput;
    return cv;
  }

  /** Saves a checkpoint of the current tables (per durability), then advances the step counter. */
  putCheckpoint(source: CheckpointSource): Promise<unknown> | undefined {
    const step = this.step;
    this.step++;
    if (!this.durable) return undefined;
    if (source === "input" && this.startInput !== undefined) this.versions[START] = ++this.maxV;
    const id = checkpointId(step);
    const channelValues = this.checkpointValues();
    // versions of the channels present only: a checkpoint stays O(state), not O(nodes ever run)
    const channelVersions: Record<string, number> = {};
    const newVersions: Record<string, number> = {};
    for (const k in channelValues) {
      const v = (this.versions[k] ??= this.maxV);
      channelVersions[k] = v;
      if (v > this.savedMaxV) newVersions[k] = v;
    }
    const checkpoint: Checkpoint = {
      v: 1,
      id,
      ts: checkpointTs(),
      channel_values: channelValues,
      channel_versions: channelVersions,
      // LangGraph keeps every node's entry; only the last step's are needed (default `asNode` of updateState)
      versions_seen: this.seen,
    };
    const metadata: CheckpointMetadata = { source, step, parents: this.parents };
    this.savedMaxV = this.maxV;
    const parentCfg = this.cfg(this.hasCheckpoint ? this.cpId : undefined);
    const prevConfig = this.hasCheckpoint ? this.cpConfig : undefined;
    this.cpId = id;
    this.cpConfig = this.cfg(id);
    this.metadata = metadata;
    this.hasCheckpoint = true;
    this.timeTravel = false;
    const exitOnly = this.run.durability === "exit";
    if (exitOnly) {
      this.unsaved = { parentCfg, checkpoint, metadata, newVersions };
      this.writeBuf = [];
    } else {
      const saver = this.run.saver!;
      this.enqueue(() => saver.put(parentCfg, checkpoint, metadata, newVersions));
    }
    const sink = this.run.sink;
    if (sink && sink.modes & (M_CHECKPOINTS | M_DEBUG) && this.visible(M_CHECKPOINTS)) {
      this.tasks = this.prepare();
      const payload = {
        config: { configurable: { checkpoint_ns: this.ns, thread_id: this.run.threadId, checkpoint_id: id } },
        values: { ...this.values },
        metadata,
        next: langGraphOrder(this.tasks, this.pullCount).map((t) => t.cn.name),
        tasks: langGraphOrder(this.tasks, this.pullCount).map((t) => ({
          id: t.id,
          name: t.cn.name,
          path: t.path,
          interrupts: [],
        })),
        ...(prevConfig ? { parentConfig: prevConfig } : {}),
      };
      if (sink.modes & M_CHECKPOINTS) sink.push(this.nsArr, "checkpoints", payload);
      if (sink.modes & M_DEBUG)
        sink.push(this.nsArr, "debug", { step, type: "checkpoint", timestamp: checkpoint.ts, payload });
    }
    if (!exitOnly && this.run.durability === "sync") return this.flush();
    return undefined;
  }

  /** Saves a task's writes against the current checkpoint (buffered with exit durability). */
  putWrites(t: Task, writes: [string, unknown][]): void {
    if (!this.durable) return;
    this.putWritesRaw(t.id, writes);
  }

  private putWritesRaw(taskId: string, writes: [string, unknown][]): void {
    if (this.run.durability === "exit") {
      this.writeBuf.push([taskId, writes]);
      return;
    }
    const saver = this.run.saver!;
    const cfg = this.cpConfig ?? this.cfg(undefined);
    this.enqueue(() => saver.putWrites(cfg, writes, taskId));
  }

  /** A task's writes as LangGraph channel writes: fields, triggers, barriers, Sends. */
  flatWrites(t: Task): [string, unknown][] {
    const out: [string, unknown][] = [];
    if (t.updates) for (const u of t.updates) for (const k of Object.keys(u.values)) out.push([k, toWire(u.values[k])]);
    if (t.trig) for (const n of t.trig) out.push([n.triggerKey, null]);
    if (t.edgeTrig) for (const n of t.edgeTrig) out.push([n.triggerKey, null]);
    if (t.joinW) for (const j of t.joinW) out.push([this.c.joins[j]!.key, t.cn.name]);
    if (t.sends) for (const s of t.sends) out.push(["__pregel_tasks", { node: s.node, arg: s.arg }]);
    if (out.length === 0) out.push(["__no_writes__", null]);
    return out;
  }

  // ------------------------------------------------------------------------------------------------------
  // introspection (getState, updateState)

  /** Tasks of the next step with their pending writes attached (without running anything). */
  peekTasks(): Task[] {
    return (this.tasks ??= this.prepare());
  }

  /** the next step's tasks in LangGraph's listing order (Sends first) */
  listTasks(): Task[] {
    return langGraphOrder(this.peekTasks(), this.pullCount);
  }

  get checkpointConfig(): RunnableConfig | undefined {
    return this.cpConfig;
  }
  get checkpointMetadata(): CheckpointMetadata | undefined {
    return this.metadata;
  }
  get pendingWrites(): readonly PendingWrite[] {
    return this.pending;
  }

  /** A copy of the state with the writes of finished tasks applied (getState without checkpoint_id). */
  valuesWithPending(tasks: readonly Task[]): Values {
    const copy = { ...this.values };
    const ups: TaskUpdate[] = [];
    for (const t of tasks) if (t.cached && t.updates) ups.push(...t.updates);
    if (ups.length > 0) this.c.spec.apply(copy, ups);
    return copy;
  }

  /** `updateState`: runs `asNode`'s writers on `values` as one superstep and saves an "update" checkpoint. */
  async update(values: unknown, asNode: string): Promise<RunnableConfig> {
    if (asNode === END) {
      const tasks = this.peekTasks().filter((t) => t.cached);
      // unfinished tasks are dropped; finished ones keep their writes
      for (const t of this.peekTasks()) if (!t.cached && t.joinTrigger >= 0) this.consumeJoin(t.joinTrigger);
      if (values !== null && values !== undefined) {
        throw new InvalidUpdateError("updateState as END takes no values", this.site());
      }
      this.apply(tasks.length > 0 ? tasks : [new Task(this, this.c.start, PULL, 0, undefined, "__interrupt__", -1)]);
    } else if (asNode === "__copy__") {
      // a fork: the same state under a new checkpoint
    } else if (asNode === "__input__" || asNode === START) {
      const t = new Task(this, this.c.start, PULL, 0, undefined, "__interrupt__", -1);
      const r = processReturn(t, asNode === "__input__" ? this.c.spec.input(values) : values);
      if (r) await r;
      this.apply([t]);
    } else {
      const n = this.c.byName.get(asNode);
      if (!n) throw new InvalidUpdateError(`Node "${asNode}" does not exist`, this.site());
      const t = new Task(this, n, PULL, 0, undefined, "__interrupt__", -1);
      const r = processReturn(t, values);
      if (r) await r;
      this.apply([t]);
    }
    this.tasks = undefined;
    this.pending = [];
    await this.putCheckpoint(asNode === "__copy__" ? "fork" : asNode === "__input__" ? "input" : "update");
    await this.flush();
    return this.cpConfig!;
  }

  /** The node that wrote last (LangGraph's default `asNode`), from versions_seen. */
  lastNode(): string {
    if (this.c.nodes.length === 1) return this.c.nodes[0]!.name;
    let best: string | undefined;
    let bestV = -1;
    let tie = false;
    for (const [name, s] of Object.entries(this.seen)) {
      if (!this.c.byName.has(name)) continue;
      const v = Math.max(-1, ...Object.values(s));
      if (v > bestV) {
        bestV = v;
        best = name;
        tie = false;
      } else if (v === bestV) tie = true;
    }
    if (best === undefined) return START;
    if (tie) throw new InvalidUpdateError('Ambiguous update, specify "asNode"', this.site());
    return best;
  }

  // ------------------------------------------------------------------------------------------------------
  // streaming

  /** values/updates/tasks/checkpoints/debug of a subgraph reach the stream only with `subgraphs: true` */
  private visible(bit: number): boolean {
    return this.isRoot || this.run.sink!.subgraphs || (bit & (M_CUSTOM | M_MESSAGES)) !== 0;
  }

  private emitValues(): void {
    const sink = this.run.sink;
    if (sink && sink.modes & M_VALUES && this.visible(M_VALUES)) sink.push(this.nsArr, "values", { ...this.values });
  }

  private emitInterrupt(interrupts: Interrupt[]): void {
    const sink = this.run.sink;
    if (!sink || !this.visible(M_UPDATES)) return;
    if (sink.modes & M_UPDATES) sink.push(this.nsArr, "updates", { __interrupt__: interrupts });
    if (sink.modes & M_VALUES) sink.push(this.nsArr, "values", { __interrupt__: interrupts });
  }

  emitTaskStart(t: Task): void {
    const sink = this.run.sink;
    if (!sink || !(sink.modes & (M_TASKS | M_DEBUG)) || t.cn === this.c.start || !this.visible(M_TASKS)) return;
    const payload = { id: t.id, name: t.cn.name, input: t.input, triggers: [t.trigger], interrupts: [] };
    if (sink.modes & M_TASKS) sink.push(this.nsArr, "tasks", payload);
    if (sink.modes & M_DEBUG)
      sink.push(this.nsArr, "debug", { step: t.step, type: "task", timestamp: new Date().toISOString(), payload });
  }

  emitTaskDone(t: Task, cached: boolean): void {
    const sink = this.run.sink;
    if (!sink || t.cn === this.c.start || !this.visible(M_UPDATES)) return;
    if (sink.modes & M_UPDATES) {
      const payload: Record<string, unknown> = { [t.cn.name]: taskUpdate(t.updates) };
      if (cached) payload["__metadata__"] = { cached: true };
      sink.push(this.nsArr, "updates", payload);
    }
    if (sink.modes & (M_TASKS | M_DEBUG))
      this.emitTaskResult(t, { id: t.id, name: t.cn.name, result: taskResult(t.updates), interrupts: [] });
  }

  /** `tasks`/`debug` result of a task that failed or was interrupted (no `updates` chunk for those) */
  private emitTaskStopped(t: Task): void {
    const sink = this.run.sink;
    if (!sink || !(sink.modes & (M_TASKS | M_DEBUG)) || t.cn === this.c.start || !this.visible(M_TASKS)) return;
    const payload: Record<string, unknown> = { id: t.id, name: t.cn.name, result: {}, interrupts: t.interrupts ?? [] };
    if (t.error !== undefined) payload["error"] = t.error instanceof Error ? t.error.message : String(t.error);
    this.emitTaskResult(t, payload);
  }

  private emitTaskResult(t: Task, payload: unknown): void {
    const sink = this.run.sink!;
    if (sink.modes & M_TASKS) sink.push(this.nsArr, "tasks", payload);
    if (sink.modes & M_DEBUG)
      sink.push(this.nsArr, "debug", {
        step: t.step,
        type: "task_result",
        timestamp: new Date().toISOString(),
        payload,
      });
  }
}

export type { StreamMode };
