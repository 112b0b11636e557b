/**
 * A node's return value → the task's writes (reference §1.7–§1.9, §2.5): state updates, Command update and
 * goto, static edges, join barriers, and the routers, which see the pre-step state plus this task's own
 * writes only.
 */
import { PARENT, gotoList, isCommand, isSend, type Command } from "./command.ts";
import { InvalidUpdateError, badNodeReturn, noParent } from "./errors.ts";
import type { ErrorSite } from "./errors.ts";
import type { BranchContext, Destinations, TaskUpdate, Values } from "./spec.ts";
import { END, Send } from "./spec.ts";
import type { FreshRead } from "./task.ts";
import type { CNode, CompiledNodes } from "./compiled.ts";
import { isThenable } from "./contracts.ts";
import { defineField, isRecord } from "./objects.ts";

/**
 * What the writes of a node use of its task: the full loop's `Task` (task.ts) and the lean loop's
 * (lean/task.ts) both are one. The task is also what its routers get as their `BranchContext`.
 */
export interface WriteTask extends BranchContext {
  readonly loop: {
    readonly c: CompiledNodes;
    readonly values: Values;
    /**
     * The error that carries a `Command.PARENT` out of this graph: a `ParentCommand` for a subgraph; none at
     * the root, where it is "There is no parent graph.". The full loop's (not imported here), so a bundle of
     * the small loops, which only run root graphs and have none, carries neither `ParentCommand` nor its
     * rebuilt Command.
     */
    toParent?(cmd: Command, site: ErrorSite): Error | undefined;
  };
  readonly cn: CNode;
  /** state updates, in the order the node produced them */
  readonly updates: TaskUpdate[] | undefined;
  /** adds a checked update to `updates` */
  addUpdate(u: Values): void;
  fresh: FreshRead | undefined;
  trig: CNode[] | undefined;
  edgeTrig: readonly CNode[] | undefined;
  joinW: readonly number[] | undefined;
  sends: Send[] | undefined;
}


function site(t: WriteTask): ErrorSite {
  return { graph: t.loop.c.spec.name, node: t.cn.name };
}

/** Turns a node's return value into the task's writes, then runs its edges and routers. */
export function processReturn(t: WriteTask, ret: unknown): Promise<void> | undefined {
  takeReturn(t, ret);
  if (t.cn.edges.branches.length > 0) return runBranches(t);
  return undefined;
}

/**
 * A node's return value as the task's writes, with its static edges and join barriers. Its routers run apart
 * (`runBranches`), so that the lean loop of a graph without routers (lean/graph.ts) bundles none of their code.
 */
export function takeReturn(t: WriteTask, ret: unknown): void {
  if (ret === null || ret === undefined) {
    // no state writes
  } else if (isCommand(ret)) {
    processCommand(t, ret);
  } else if (Array.isArray(ret)) {
    if (!ret.some(isCommand)) throw badNodeReturn(t.loop.c.spec.name, t.cn.name, ret);
    for (const x of ret) {
      if (isCommand(x)) processCommand(t, x);
      else if (isRecord(x)) addUpdate(t, x);
      else if (x !== null && x !== undefined) throw badNodeReturn(t.loop.c.spec.name, t.cn.name, x);
    }
  } else if (typeof ret === "object") {
    addUpdate(t, ret as Values);
  } else {
    throw badNodeReturn(t.loop.c.spec.name, t.cn.name, ret);
  }
  const e = t.cn.edges;
  if (t.cn.targets.length > 0) t.edgeTrig = t.cn.targets;
  // the node's own list, shared (as `edgeTrig`): a fan-in of many tasks allocates none
  if (e.joins.length > 0) t.joinW = t.joinW === undefined ? e.joins : t.joinW.concat(e.joins);
}

/**
 * An update with its own enumerable keys only: generated checks and `apply` read updates with `for…in`
 * (about 2× cheaper than an `Object.keys` array), which also walks the prototype chain, so an update whose
 * prototype is not Object.prototype or null (`Object.create({ total: 5 })`, a class instance) is copied to
 * a plain object first. `defineProperty` keeps an own `__proto__` key a key (an assignment would set the
 * copy's prototype), so the check still rejects it.
 */
export function ownKeys(u: Values): Values {
  const p: unknown = Object.getPrototypeOf(u);
  if (p === Object.prototype || p === null) return u;
  const o: Values = {};
  for (const k of Object.keys(u)) defineField(o, k, u[k]);
  return o;
}

function addUpdate(t: WriteTask, update: Values): void {
  const u = ownKeys(update);
  if (t.cn !== t.loop.c.start) t.cn.spec.check(u);
  t.addUpdate(u);
}

/**
 * A Command's update and goto as the task's writes. `checkInput` checks the update of a Command given as
 * input (command-input.ts), which has no node whose `check` applies; a node's Command leaves it undefined.
 */
export function processCommand(t: WriteTask, cmd: Command, checkInput?: (t: WriteTask, u: Values) => void): void {
  if (cmd.graph === PARENT) throw t.loop.toParent?.(cmd, site(t)) ?? noParent(site(t));
  const u = cmd.update;
  if (u !== undefined && u !== null) {
    if (Array.isArray(u)) {
      for (const pair of u as readonly (readonly [string, unknown])[]) {
        if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string")
          throw new InvalidUpdateError(
            `Command.update of node "${t.cn.name}" must be an object or a list of [field, value] pairs`,
            site(t),
          );
        const one = { [pair[0]]: pair[1] };
        checkInput?.(t, one);
        addUpdate(t, one);
      }
    } else if (isRecord(u)) {
      const own = ownKeys(u as Values);
      checkInput?.(t, own);
      addUpdate(t, own);
    }
    else throw badNodeReturn(t.loop.c.spec.name, t.cn.name, u);
  }
  // START (a Command given as input) declares no goto targets
  const ends = t.cn.spec.ends;
  for (const g of gotoList(cmd)) {
    if (isSend(g)) {
      addSend(t, g);
      continue;
    }
    if (g === END) continue;
    const n = t.loop.c.byName.get(g);
    if (!n || (ends !== undefined && !ends.includes(g))) {
      throw new InvalidUpdateError(
        n
          ? `Command.goto from node "${t.cn.name}" to "${g}", which is not among its declared goto targets`
          : `Command.goto from node "${t.cn.name}" names unknown node "${g}"`,
        site(t),
      );
    }
    (t.trig ??= []).push(n);
  }
}

function addSend(t: WriteTask, s: Send): void {
  if (s.node === END) throw new InvalidUpdateError("Cannot send a packet to the END node", site(t));
  if (!t.loop.c.byName.has(s.node))
    throw new InvalidUpdateError(`Invalid node name "${s.node}" in Send packet`, site(t));
  (t.sends ??= []).push(s);
}

/**
 * Routers run in order (after `takeReturn`); each sees the pre-step state plus this task's own writes only.
 * The lean loop of a graph with routers gets this function from lean/graph.ts.
 */
export function runBranches(t: WriteTask, from = 0, fresh?: Values): Promise<void> | undefined {
  const bs = t.cn.edges.branches;
  for (let i = from; i < bs.length; i++) {
    if (fresh === undefined) {
      if (t.updates) {
        fresh = { ...t.loop.values };
        const written = t.loop.c.spec.apply(fresh, t.updates);
        t.fresh = { values: fresh, written, updates: t.updates, count: t.updates.length };
      } else fresh = t.loop.values;
    }
    const r = bs[i]!(fresh, t);
    if (isThenable(r)) {
      const f = fresh;
      return (r as Promise<Destinations>).then((d) => {
        destinations(t, d);
        return runBranches(t, i + 1, f);
      });
    }
    destinations(t, r as Destinations);
  }
  return undefined;
}

function destinations(t: WriteTask, d: Destinations): void {
  if (typeof d === "string") return destination(t, d);
  if (isSend(d)) return addSend(t, d);
  if (Array.isArray(d)) {
    for (const x of d as readonly (string | Send)[]) {
      if (isSend(x)) addSend(t, x);
      else destination(t, x);
    }
    return;
  }
  if (d === null || d === undefined)
    throw new InvalidUpdateError("Branch condition returned unknown or null destination", site(t));
  throw new InvalidUpdateError(
    `Router of node "${t.cn.name}" returned ${typeof d}, expected node names or Send packets`,
    site(t),
  );
}

function destination(t: WriteTask, name: string): void {
  if (name === END) return;
  const n = t.loop.c.byName.get(name);
  if (!n) throw new InvalidUpdateError(`Router of node "${t.cn.name}" returned unknown node "${name}"`, site(t));
  (t.trig ??= []).push(n);
}
