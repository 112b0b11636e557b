/**
 * The superstep loop of one graph level (LangGraph's PregelLoop + runner, reference §1).
 *
 * Channel model: data fields live in `values` (merged by the spec's generated `apply`); the loop's own
 * channels (`branch:to:X`, `join:a+b:c`, `__pregel_tasks`, `__start__`) are the flat tables of `ch`
 * (channels.ts). Versions are only tracked when a checkpointer is present, in the checkpoint state `cp`
 * that durable execution makes (checkpoint-state.ts).
 *
 * The optional parts are reached only through the run's hooks (contracts.ts): `run.d` (durable execution),
 * `run.input` (a Command as input), `run.policy` (node policies) and `run.sink.ev` (stream events). This
 * module imports none of them.
 *
 * Fast path: a step whose tasks are all plain synchronous nodes runs without a single await; `drive()`
 * only turns asynchronous when a node, a router or the checkpointer returns a promise.
 */
import type { LevelTrace, Tracing } from "./trace-hooks.ts";
import { commandOf, gotoList, isCommand, type Command } from "./command.ts";
import type { Durability } from "./durability.ts";
import type { Store } from "./store/types.ts";
import type { CNode, Compiled } from "./compiled.ts";
import { compile } from "./compiled.ts";
import { Channels, type Pooled } from "./channels.ts";
import type {
  CommandInputHooks,
  DurableHooks,
  Outcome,
  PolicyHooks,
  ResumeState,
  StreamSink,
  WriteRecord,
} from "./contracts.ts";
import { isThenable } from "./contracts.ts";
import {
  noInput,
  GraphAbortError,
  GraphError,
  GraphInterrupt,
  GraphRecursionError,
  NodeError,
  ParentCommand,
  missingPart,
} from "./errors.ts";
import type { ErrorSite, Interrupt } from "./errors.ts";
import type {
  Checkpoint,
  CheckpointMetadata,
  CheckpointSaver,
  CheckpointSource,
  PendingWrite,
  RunnableConfig,
} from "./checkpoint/types.ts";
import type { GraphSpec, Send, TaskUpdate, Values } from "./spec.ts";
import { START } from "./spec.ts";
import { M_DEBUG, M_TASKS } from "./stream.ts";
import { PULL, PUSH, Task } from "./task.ts";
import type { CheckpointState } from "./checkpoint-state.ts";
import { ownKeys, processReturn } from "./writes.ts";
import { endStep, runLimited, stepPromise, stepSignal } from "./step-signal.ts";
import { applyBare, applyUpdates, recursionLimit, stepFailure, writesOutput } from "./superstep.ts";

export type { Outcome, ResumeState, WriteRecord };

/** A task of a loop: the optional parts see its whole loop through `t.loop`. */
export type LoopTask = Task<Loop>;
/** The sink of a streaming run, with the stream events of loops and tasks (which the small loops share). */
export type LoopSink = StreamSink;

/** Shared by every level of one run (root and subgraphs). */
export interface Run {
  readonly saver: CheckpointSaver | undefined;
  readonly threadId: string | undefined;
  /** as given (checked when the thread is taken, thread-lock.ts) */
  readonly multitask: unknown;
  readonly durability: Durability;
  readonly signal: AbortSignal | undefined;
  readonly sink: LoopSink | undefined;
  readonly resume: ResumeState;
  readonly maxConcurrency: number;
  readonly varsOverride: Values;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly recursionLimit: number | undefined;
  /**
   * Replay from a subgraph's checkpoint: the `checkpoint_map` of a config taken from a subgraph snapshot
   * (namespace → checkpoint id, "" = root). Each level starts from its entry instead of its latest.
   */
  readonly checkpointMap: Readonly<Record<string, string>> | undefined;
  /** the long-term store nodes reach as `ctx.store` (compile option or per run), shared with subgraphs */
  readonly store: Store | undefined;
  /** the root was called with null or a resume Command: subgraphs continue from their checkpoints */
  resuming: boolean;
  /**
   * set when the root replays from a past checkpoint: `from` is that checkpoint's id, `at` an id made when the
   * replay began (every checkpoint saved by this run sorts after it). Stateful subgraphs load their state as
   * of `from`, not their newest (durable.ts `asOfReplay`).
   */
  replay: { from: string; at: string } | undefined;
  readonly cache: Map<string, { expires: number; record: WriteRecord }>;
  /** durable execution (durable.ts), set when the run has a checkpointer */
  readonly d: DurableHooks<Loop, LoopTask> | undefined;
  /** node policies (policy.ts), when installed */
  readonly policy: PolicyHooks<LoopTask> | undefined;
  /** a Command as input (command-input.ts), when installed */
  readonly input: CommandInputHooks<Loop> | undefined;
  /** spans, when the run is traced (trace-hooks.ts; tracing.ts implements them for OpenTelemetry) */
  readonly tracing: Tracing | undefined;
  readonly traceInfo: { readonly tags?: readonly string[] | undefined; readonly metadata?: Readonly<Record<string, unknown>> | undefined; readonly runName?: string | undefined };
}

const DONE: Outcome = { interrupted: false };
const RUNNING = Symbol("running");
const NO_NAMES: ReadonlySet<string> = new Set();
const NO_NS: readonly string[] = [];
// shared initial values (frozen: a stray write fails loudly instead of leaking between runs)
const NO_VALUES: Values = Object.freeze({});

export interface LoopOptions {
  parent?: Loop;
  /**
   * A subgraph: the parent's task that runs it. The child's namespace derives from it (computed when first
   * needed), its finished steps count as that task's progress (idle timeouts), and a Command.PARENT leaving
   * the child is that task's to handle.
   */
  task?: LoopTask;
  /** namespace segments of this graph ([] for the root) when it is not a subgraph run by `task` */
  nsArr?: readonly string[];
  /** root only: load this checkpoint (time travel) */
  checkpointId?: string;
  /** root only: per-call breakpoints */
  interruptBefore?: readonly string[] | undefined;
  interruptAfter?: readonly string[] | undefined;
}

function byRank(a: CNode, b: CNode): number {
  return a.rank - b.rank;
}

export class Loop {
  // the fields the constructor always sets are `declare`d (lean/task.ts says why): no class field that stays
  // undefined beside the package bundle's shortened name, no bytes for the declaration
  declare readonly run: Run;
  declare readonly opts: LoopOptions;
  declare readonly c: Pooled;
  declare _nsArr: readonly string[] | undefined;
  _ns: string | undefined;
  declare readonly vars: Values;
  declare readonly durable: boolean;
  values: Values = NO_VALUES;
  step = -1;
  stop = 0;

  /** the loop's own channels: triggers, barriers, Sends, the start input (channels.ts) */
  declare readonly ch: Channels;
  tasks: LoopTask[] | undefined;
  pullCount = 0;
  stepController: AbortController | undefined;
  unlinkStep: (() => void) | undefined;
  declare readonly before: ReadonlySet<string>;
  declare readonly after: ReadonlySet<string>;
  armed = true;
  sawOutput = false;
  /** this step's tasks were announced to the stream before they ran (runTasks) */
  announced = false;
  /** at an interrupt: the state with the finished tasks' writes applied (what `invoke` reports) */
  view: Values | undefined;
  running: Promise<unknown> | undefined;
  /** the single task whose raw promise `running` is (the common one-task async step) */
  single: LoopTask | undefined;
  /** some task of the current step failed, interrupted or bubbled */
  troubled = false;
  /** the earliest genuine failure of the current step, in its task's `ticks` (-1: none), and its error */
  failAt = -1;
  failErr: unknown;

  /** the checkpoint state (durable.ts makes it), when the run has a saver */
  declare readonly cp: CheckpointState | undefined;
  /** this level's spans, when the run is traced */
  readonly trace: LevelTrace | undefined;

  constructor(spec: GraphSpec, run: Run, opts: LoopOptions = {}) {
    this.run = run;
    this.opts = opts;
    const c: Pooled = (this.c = compile(spec));
    this._nsArr = opts.task ? undefined : (opts.nsArr ?? NO_NS);
    const inherited = opts.parent ? opts.parent.vars : NO_VALUES;
    this.vars = spec.vars(run.varsOverride, inherited, run.env);
    this.durable = run.saver !== undefined;
    this.cp = run.d?.checkpointState(opts.parent?.cp);
    // the channels a finished loop of this graph left (finish): a level's tables are not made per run and call
    this.ch = c.spare ?? new Channels(c);
    c.spare = undefined;
    const before = opts.interruptBefore ?? spec.interruptBefore;
    const after = opts.interruptAfter ?? spec.interruptAfter;
    this.before = before.length === 0 ? NO_NAMES : new Set(before);
    this.after = after.length === 0 ? NO_NAMES : new Set(after);
    this.limit = recursionLimit(run.recursionLimit, spec);
    this.quickStart = c.plainStart && !this.durable && run.tracing === undefined;
    if (run.tracing !== undefined) {
      const pt = opts.parent?.trace;
      const parent = pt !== undefined && opts.task !== undefined ? { trace: pt, taskId: opts.task.id } : undefined;
      this.trace = run.tracing.start({ graph: spec.name, namespace: this.ns, threadId: run.threadId, ...run.traceInfo }, parent);
    }
  }
  declare readonly limit: number;
  /** the start step runs without a task: no saver or trace records it and START only has static edges */
  declare readonly quickStart: boolean;

  /** this graph's namespace segments; a subgraph's needs its task id, so it is computed on first use */
  get nsArr(): readonly string[] {
    return (this._nsArr ??= this.childNs());
  }

  /** a subgraph's namespace: `parentNs|node:taskId`, or `parentNs|node` for a stateful child (reference §4.4) */
  private childNs(): readonly string[] {
    const task = this.opts.task!;
    return this.c.spec.stateful ? [...this.opts.parent!.nsArr, task.cn.name] : task.namespace;
  }

  get ns(): string {
    return (this._ns ??= this.nsArr.join("|"));
  }

  get isRoot(): boolean {
    return this.opts.parent === undefined;
  }

  /** the run's stream sink (contracts.ts StreamLoop) */
  get sink(): LoopSink | undefined {
    return this.run.sink;
  }

  /** writes.ts WriteTask: a subgraph's Command.PARENT leaves as a ParentCommand; at the root writes.ts fails it */
  toParent(cmd: Command, site: ErrorSite): Error | undefined {
    if (this.isRoot) return undefined;
    return new ParentCommand(commandOf(cmd.update, gotoList(cmd)), site);
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
    return this.run.d!.start(this, input);
  }

  setStop(): void {
    this.stop = this.step + this.limit + 1;
  }

  /** a part of the runtime this run needs is not installed (features.ts) */
  missing(what: string, node?: string, fix?: string): never {
    throw missingPart(what, this.site(node), fix);
  }

  site(node?: string): { graph: string; node?: string } {
    return node === undefined ? { graph: this.c.spec.name } : { graph: this.c.spec.name, node };
  }

  takeInput(input: unknown): void | Promise<unknown> {
    const spec = this.c.spec;
    // a Command as input (resume, update, goto) is its own part (command-input.ts)
    if (isCommand(input)) return (this.run.input ?? this.missing("A Command as input")).takeCommand(this, input);
    if (input === null || input === undefined) {
      if (!this.cp?.hasCheckpoint) throw noInput(this.site());
      return this.run.d!.beginResume(this);
    }
    const filtered = spec.input(input);
    if (this.cp?.hasCheckpoint) this.run.d!.discardPending(this);
    this.ch.startInput = filtered;
    this.ch.resetCands();
    this.tasks = undefined;
    return this.putCheckpoint("input");
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

  async driveAsync(first: unknown): Promise<Outcome> {
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

  finish(o: Outcome): Outcome | Promise<Outcome> {
    this.trace?.runEnd({ interrupted: o.interrupted });
    if (!this.durable) {
      // Finished without a join, the channels are as new: every trigger set had its task (none is left), no
      // Send nor input is left, and every start resets the candidates. A barrier may keep a partial set.
      if (!o.interrupted && this.c.joins.length === 0) this.c.spare = this.ch;
      return o;
    }
    // "exit" durability keeps a finished subgraph's state only when it is stateful (LangGraph: a nested
    // loop saves at exit only on an error or interrupt, or when its namespace has no task id)
    if (this.run.durability === "exit" && !this.isRoot && !o.interrupted && !this.c.spec.stateful) {
      this.cp!.unsaved = undefined;
      this.cp!.writeBuf = [];
    }
    return this.flush().then(() => o);
  }

  // ------------------------------------------------------------------------------------------------------
  // one superstep

  /** true: continue; false: done; Outcome: interrupted; RUNNING: await `running`; or a promise of these. */
  tick(): boolean | Outcome | Promise<boolean | Outcome> | typeof RUNNING {
    const sig = this.run.signal;
    if (sig?.aborted) throw this.traceError(new GraphAbortError(this.site(), sig.reason));
    const pt = this.opts.task;
    if (pt !== undefined) {
      // a subgraph: one more superstep of its task; stop here if a sibling of an enclosing step failed first
      pt.ticks++;
      const failed = this.siblingFailure();
      if (failed !== undefined) throw new GraphAbortError(this.site(), failed.failErr, true);
    }
    if (this.quickStart && this.tasks === undefined && this.ch.startInput !== undefined) {
      const r = this.startStep(this.ch.startInput);
      if (r !== undefined) return r;
    }
    const tasks = (this.tasks ??= this.prepare());
    if (tasks.length === 0) return false;
    if (this.armed && this.before.size > 0 && this.breakpoint(this.before, tasks)) return this.staticInterrupt();
    this.trace?.stepStart(this.step);
    const r = this.runTasks(tasks);
    if (r) {
      this.running = r;
      return RUNNING;
    }
    return this.afterStep(tasks);
  }

  /**
   * The enclosing loop whose current step already failed no later than this branch has got (LangGraph: the
   * first failure aborts the step's shared signal, which a running subgraph sees at its next step). "Later" is
   * counted in supersteps (`Task.ticks`) at each level, because a synchronous child runs to its end before its
   * sibling starts: a child that fails at an earlier superstep than its sibling is still the first failure.
   */
  siblingFailure(): Loop | undefined {
    let l: Loop = this;
    for (let p = l.opts.parent; p !== undefined; l = p, p = p.opts.parent) {
      if (p.failAt >= 0 && p.failAt <= (l.opts.task?.ticks ?? 0)) return p;
    }
    return undefined;
  }

  breakpoint(set: ReadonlySet<string>, tasks: readonly LoopTask[]): boolean {
    for (const t of tasks) if (t.cn !== this.c.start && (set.has("*") || set.has(t.cn.name))) return true;
    return false;
  }

  staticInterrupt(): Outcome {
    this.emitInterrupt([]);
    return { interrupted: true, interrupts: [] };
  }

  /**
   * The hidden `__start__` step when `quickStart`: the input is written and START's edges triggered
   * directly, with the effects `prepare`, `runTasks` and `commit` have for the start task (whose update
   * is not checked, whose task no stream mode shows, and which no breakpoint stops). An input that is not
   * a plain update (null, a Command) takes the task's way (`undefined`).
   */
  startStep(input: Values): true | undefined {
    if (typeof input !== "object" || input === null || Array.isArray(input) || isCommand(input)) return undefined;
    const c = this.c;
    const ch = this.ch;
    const values = this.values;
    ch.startInput = undefined;
    const written = applyBare(c.spec, values, ownKeys(input), START, true);
    ch.clearActive();
    const targets = c.start.targets;
    for (let i = 0; i < targets.length; i++) {
      const n = targets[i]!;
      if (!ch.trig[n.idx]) {
        ch.trig[n.idx] = 1;
        ch.active[ch.activeN++] = n;
      }
      ch.candBuf[i] = n;
    }
    ch.candN = targets.length;
    ch.scanAll = false;
    if (ch.sends.length > 0) ch.sends = [];
    c.spec.clearEphemeral?.(values);
    this.wrote(written);
    this.armed = true;
    this.opts.task?.onProgress?.();
    this.step++;
    if (this.step > this.stop) throw this.traceError(new GraphRecursionError(this.limit, this.site()));
    return true;
  }

  prepare(): LoopTask[] {
    const ch = this.ch;
    if (ch.startInput !== undefined) {
      const tasks = [new Task<Loop>(this, this.c.start, PULL, 0, ch.startInput, START, -1)];
      this.pullCount = 1;
      return this.cp !== undefined && this.cp.pending.length > 0 ? this.run.d!.attachPending(this, tasks) : tasks;
    }
    let cands: readonly CNode[] = ch.candBuf;
    let count = ch.candN;
    if (ch.scanAll) {
      cands = this.c.sorted;
      count = cands.length;
    } else if (count > 1) {
      cands = count > 8 ? ch.byRank(count) : ch.candBuf.slice(0, count).sort(byRank);
      count = cands.length;
    }
    const sends = ch.sends;
    // a step's array is made per step: a lone task's is a literal of one (`push` onto `[]` makes room for 17)
    let tasks: LoopTask[] | undefined;
    let k = 0;
    let prev: CNode | undefined;
    const values = this.values;
    for (let i = 0; i < count; i++) {
      const n = cands[i]!;
      if (n === prev) continue;
      prev = n;
      let trigger: string | undefined;
      let ji = -1;
      if (ch.trig[n.idx] && (!n.defer || ch.trigFin[n.idx])) trigger = n.triggerKey;
      else {
        for (const j of n.joinsIn) {
          const cj = this.c.joins[j]!;
          if (ch.joinSeen[j]!.size === cj.sources.length && (!cj.deferred || ch.joinFin[j])) {
            trigger = cj.key;
            ji = j;
            break;
          }
        }
      }
      if (trigger === undefined) continue;
      const t = new Task<Loop>(this, n, PULL, k++, n.spec.read(values), trigger, ji);
      if (tasks === undefined) tasks = [t];
      else tasks.push(t);
    }
    this.pullCount = k;
    tasks ??= [];
    for (let i = 0; i < sends.length; i++) {
      const s = sends[i]!;
      tasks.push(new Task<Loop>(this, this.c.byName.get(s.node)!, PUSH, i, s.arg, PUSH, -1));
    }
    return this.cp !== undefined && this.cp.pending.length > 0 ? this.run.d!.attachPending(this, tasks) : tasks;
  }

  runTasks(tasks: LoopTask[]): Promise<unknown> | undefined {
    let promises: Promise<unknown>[] | undefined;
    const n = tasks.length;
    if (n === 1 && !this.run.signal) {
      const t = tasks[0]!;
      if (!t.cached && t.cn.plain) return this.exec(t, true);
    }
    // LangGraph announces every task of the step (`tasks`/`debug` modes) before any of them runs
    const sink = this.run.sink;
    this.announced = sink !== undefined && (sink.modes & (M_TASKS | M_DEBUG)) !== 0;
    // each through emitTaskStart, which opens the task's trace span too
    if (this.announced) {
      for (let k = 0; k < n; k++) {
        const t = tasks[(k + this.pullCount) % n]!;
        if (!t.cached) this.emitTaskStart(t);
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
    return promises && stepPromise(this, promises, this.run.signal);
  }

  runLimited(tasks: LoopTask[], limit: number): Promise<void> {
    return runLimited(tasks, this.pullCount, limit, this.run.signal, this, (t) => (t.cached ? this.replay(t) : this.exec(t)));
  }

  /** a task finished in an earlier run (or cached): emit its update with `cached` metadata */
  replay(t: LoopTask): undefined {
    this.emitTaskDone(t, true);
    return undefined;
  }

  /** a plain node's function; with tracing, inside its task's span (the node's own spans nest under it) */
  call(t: LoopTask): unknown {
    const trace = this.trace;
    return trace === undefined ? t.cn.spec.call(t.input, t) : trace.inTask(t.id, () => t.cn.spec.call(t.input, t));
  }

  /** ends this level's trace with `e` (when traced) and returns it, for `throw this.traceError(e)` */
  traceError<E>(e: E): E {
    this.trace?.runEnd({ error: e });
    return e;
  }

  /** `single`: the step's only task, plain: its raw promise goes to driveAsync, which settles it (no wrapper promise) */
  exec(t: LoopTask, single?: boolean): Promise<unknown> | undefined {
    if (single || !this.announced) this.emitTaskStart(t);
    if (!t.cn.plain) return (this.run.policy ?? this.missing("retry, timeout, cache and on_error policies", t.cn.name, 'call installPolicies() from "@graphc/runtime/install"')).runWithPolicy(t);
    let ret: unknown;
    try {
      ret = this.call(t);
    } catch (e) {
      return this.fail(t, e);
    }
    if (isThenable(ret)) {
      if (single) {
        this.single = t;
        return ret as Promise<unknown>;
      }
      return (ret as Promise<unknown>).then(
        (r) => this.settle(t, r),
        (e: unknown) => this.fail(t, e),
      );
    }
    return this.settle(t, ret);
  }

  /** processes a node's return value; never throws (errors are recorded on the task) */
  settle(t: LoopTask, ret: unknown): Promise<unknown> | undefined {
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

  fail(t: LoopTask, e: unknown): Promise<unknown> | undefined {
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
    if (!this.causedByFailure(e)) {
      t.failedAt = t.ticks;
      if (this.failAt < 0 || t.ticks < this.failAt) {
        this.failAt = t.ticks;
        this.failErr = err;
      }
      this.stepController?.abort(err);
    }
    this.emitTaskStopped(t);
    if (this.durable) {
      const name = e instanceof Error ? e.name : "Error";
      this.putWrites(t, [["__error__", { message: e instanceof Error ? e.message : String(e), name }]]);
    }
    return undefined;
  }

  /**
   * An error that a sibling's failure caused rather than a failure of its own (LangGraph's non-"genuine"
   * errors, which are not aggregated): a subgraph stopped by it, or a node that gave up on the aborted signal.
   */
  causedByFailure(e: unknown): boolean {
    if (e instanceof GraphAbortError) return e.bySibling;
    if (this.failAt < 0) return false;
    return (
      e === this.failErr ||
      e === this.stepController?.signal.reason ||
      (e instanceof Error && e.name === "AbortError")
    );
  }

  complete(t: LoopTask): void {
    if (this.durable) this.putWrites(t, this.run.d!.flatWrites(this, t));
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
  stepSignal(): AbortSignal {
    return stepSignal(this, this.run.signal, this.failAt >= 0);
  }

  // ------------------------------------------------------------------------------------------------------
  // end of step

  afterStep(tasks: LoopTask[]): boolean | Outcome | Promise<boolean | Outcome> {
    endStep(this);
    this.trace?.stepEnd();
    let failed = false;
    let interrupts: Interrupt[] | undefined;
    if (this.troubled) this.troubled = false;
    else return this.commit(tasks);
    for (const t of tasks) {
      if (t.bubble) {
        // a Command.PARENT leaving this subgraph is handled by the parent's task that ran it (reference §1.9)
        if (t.bubble.owner === undefined) t.bubble.owner = this.opts.task;
        throw t.bubble;
      }
      if (t.error !== undefined) failed = true;
      else if (t.interrupts) (interrupts ??= []).push(...t.interrupts);
    }
    if (failed) {
      const err = this.traceError(this.stepError(tasks));
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
        // only the root shows it: an interrupted subgraph hands the interrupt up without a values chunk
        const sink = this.run.sink;
        if (sink !== undefined && this.isRoot) sink.ev.emitView(this, view);
      }
      return { interrupted: true, interrupts };
    }
    return this.commit(tasks);
  }

  /**
   * The error a failed step throws (reference §1.3): only genuine failures count, and only the earliest
   * (fewest supersteps of subgraphs run, see `siblingFailure`). Plain nodes failing in the same step all fail
   * "at once" and are aggregated into `MultipleErrors`, as LangGraph's concurrently failing nodes are; of
   * subgraphs failing at the same superstep the first one is thrown, because it aborts the others there. A
   * step whose only errors were caused by an enclosing step's failure throws the first of them, which the
   * enclosing step in turn does not count.
   */
  stepError(tasks: readonly LoopTask[]): unknown {
    const at = this.failAt;
    this.failAt = -1;
    this.failErr = undefined;
    let errors: unknown[] | undefined;
    for (const t of tasks) {
      if (t.failedAt < 0 || t.failedAt !== at) continue;
      (errors ??= []).push(t.error);
      if (at > 0) break;
    }
    return stepFailure(tasks, errors, this.c.spec.name, this.step);
  }

  commit(tasks: LoopTask[]): boolean | Outcome | Promise<boolean | Outcome> {
    this.apply(tasks);
    this.opts.task?.onProgress?.();
    this.tasks = undefined;
    const saved = this.putCheckpoint("loop");
    if (saved) return saved.then(() => this.afterApply(tasks));
    return this.afterApply(tasks);
  }

  afterApply(tasks: LoopTask[]): boolean | Outcome {
    if (this.after.size > 0 && this.breakpoint(this.after, tasks)) return this.staticInterrupt();
    if (this.step > this.stop) throw this.traceError(new GraphRecursionError(this.limit, this.site()));
    return true;
  }

  /** Applies a step's writes in LangGraph's order: PULL tasks by name, then PUSH tasks by index. */
  apply(tasks: readonly LoopTask[]): void {
    const c = this.c;
    const ch = this.ch;
    const cp = this.cp;
    for (const t of tasks) ch.consume(t);
    // in place: every checkpoint, stream chunk and fresh read holds its own shallow copy of the state
    const values = this.values;
    // the fields written are needed for versions, streamed values and until an output field is written
    const written = applyUpdates(tasks, values, c.spec, !this.sawOutput || cp !== undefined || this.run.sink !== undefined);
    if (ch.startInput !== undefined) ch.startInput = undefined;

    // ephemeral triggers live for one step
    const trig = ch.trig;
    const trigFin = ch.trigFin;
    ch.clearActive();
    const active = ch.active;
    const cands = ch.candBuf;
    ch.scanAll = false;
    let candN = 0;
    let next = false;
    let sends: Send[] | undefined;
    const v = cp !== undefined ? ++cp.maxV : 0;
    const seen: Record<string, Record<string, number>> | undefined = cp !== undefined ? {} : undefined;
    for (const t of tasks) {
      if (seen) (seen[t.cn.name] ??= {})[t.trigger] = cp!.versions[t.trigger] ?? 0;
      for (let pass = 0; pass < 2; pass++) {
        const ts = pass === 0 ? t.trig : t.edgeTrig;
        if (ts === undefined) continue;
        for (let i = 0; i < ts.length; i++) {
          const n = ts[i]!;
          if (n.defer) {
            trig[n.idx] = 1;
            trigFin[n.idx] = 0;
          } else {
            if (!trig[n.idx]) {
              trig[n.idx] = 1;
              active[ch.activeN++] = n;
            }
            cands[candN++] = n;
            next = true;
          }
          if (cp !== undefined) cp.versions[n.triggerKey] = v;
        }
      }
      if (t.joinW) {
        for (const j of t.joinW) {
          const cj = c.joins[j]!;
          const seenJ = ch.joinSeen[j]!;
          // LangGraph's NamedBarrierValue counts as updated only when a new name arrives: a source writing
          // again into a barrier that is already full (its target ran through another trigger) changes nothing
          if (!seenJ.addNode(t.cn)) continue;
          if (cp !== undefined) cp.versions[cj.key] = v;
          if (!cj.deferred && seenJ.size === cj.sources.length) {
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
    if (seen) cp!.seen = seen;
    if (sends !== undefined || ch.sends.length > 0) ch.sends = sends ?? [];
    c.spec.clearEphemeral?.(values);
    // nothing else scheduled: deferred nodes and barriers become available (LangGraph's finish())
    if (!next && c.hasDeferred) {
      for (const n of c.deferred) {
        if (trig[n.idx] && !trigFin[n.idx]) {
          trigFin[n.idx] = 1;
          cands[candN++] = n;
        }
      }
      c.joins.forEach((cj, j) => {
        if (cj.deferred && !ch.joinFin[j] && ch.joinSeen[j]!.size === cj.sources.length) {
          ch.joinFin[j] = true;
          cands[candN++] = cj.target;
        }
      });
    }
    ch.candN = candN;
    if (cp !== undefined) {
      if (cp.pending.length > 0) cp.pending = [];
      for (const f of written!) cp.versions[f] = v;
      if (sends) cp.versions["__pregel_tasks"] = v;
    }
    this.wrote(written);
    this.armed = true;
  }

  /** after a step wrote `written`: whether an output field was ever written, and the `values` chunk */
  wrote(written: readonly string[] | undefined): void {
    if (!written?.length) return;
    if (!this.sawOutput && writesOutput(this.c, written)) this.sawOutput = true;
    this.emitValues();
  }

  // ------------------------------------------------------------------------------------------------------
  // subgraphs

  /**
   * Runs a child graph for `task`. Without a checkpointer a child whose nodes are synchronous runs to
   * completion right here and its output is returned as it is (errors are thrown); otherwise a promise.
   */
  runChild(task: LoopTask, child: GraphSpec, input: Values, checked?: true): Values | undefined | Promise<Values | undefined> {
    const loop = new Loop(child, this.run, { parent: this, task });
    if (this.durable) return this.run.d!.startChild(loop, input);
    loop.values = loop.c.spec.init();
    loop.setStop();
    // `checked`: a projection the compiler proved passes the child's input check (compiler subgraph-input.ts)
    loop.ch.startInput = checked ? input : loop.c.spec.input(input);
    loop.ch.resetCands();
    // the input "checkpoint" of a level without a saver only counts the step
    loop.step++;
    const o = loop.drive();
    if (isThenable(o)) return (o as Promise<Outcome>).then((x) => loop.childResult(x));
    return loop.childResult(o as Outcome);
  }

  childResult(o: Outcome): Values | undefined {
    if (o.interrupted) throw new GraphInterrupt(o.interrupts, this.site());
    // a child that wrote no output field hands nothing back (LangGraph: its invoke yields no values)
    return this.sawOutput ? this.c.spec.output(this.values) : undefined;
  }

  // ------------------------------------------------------------------------------------------------------
  // checkpoints: the hooks into durable.ts (run.d), which is set only when the run has a checkpointer

  /** a durable run's task id base (task.ts): its checkpoint's id */
  baseId(): string {
    return this.cp!.cpId;
  }

  /** exit durability: persist the last checkpoint and its writes; every mode: wait for queued saves. */
  flush(): Promise<unknown> {
    return this.run.d!.flush(this);
  }

  /** Saves a checkpoint of the current tables (per durability), then advances the step counter. */
  putCheckpoint(source: CheckpointSource): Promise<unknown> | undefined {
    const step = this.step;
    this.step++;
    if (!this.durable) return undefined;
    return this.run.d!.saveCheckpoint(this, source, step);
  }

  /** Saves a task's writes against the current checkpoint (buffered with exit durability). */
  putWrites(t: LoopTask, writes: [string, unknown][]): void {
    if (!this.durable) return;
    this.run.d!.putWritesRaw(this, t.id, writes);
  }

  // ------------------------------------------------------------------------------------------------------
  // streaming: events go to the run's sink, which carries the event code (stream-events.ts)

  emitValues(): void {
    this.run.sink?.ev.emitValues(this);
  }

  emitInterrupt(interrupts: Interrupt[]): void {
    this.run.sink?.ev.emitInterrupt(this, interrupts);
  }

  emitTaskStart(t: LoopTask): void {
    this.trace?.taskStart(t.id, t.cn.name, t.cn.spec.subgraph !== undefined, this.step);
    this.run.sink?.ev.emitTaskStart(this, t);
  }

  emitTaskDone(t: LoopTask, cached: boolean): void {
    this.trace?.taskEnd(t.id);
    this.run.sink?.ev.emitTaskDone(this, t, cached);
  }

  emitTaskStopped(t: LoopTask): void {
    this.trace?.taskEnd(t.id, { error: t.error, interrupted: t.interrupts !== undefined });
    this.run.sink?.ev.emitTaskStopped(this, t);
  }
}

