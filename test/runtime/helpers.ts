/**
 * Hand-written GraphSpecs for runtime tests. `writeOrderSpec` below is spelled out exactly as generated
 * code looks (object-literal projections, inline merges calling the runtime's reducers); the `graph()`
 * helper builds the same closures from a small table so that the many conformance cases stay short.
 */
import {
  GraphInputError,
  InvalidUpdateError,
  Send,
  append,
  fold,
  foldOne,
  replace,
  type BranchSpec,
  type GraphSpec,
  type NodeContext,
  type NodeSpec,
  type TaskUpdate,
  type Values,
} from "@graphc/runtime";

export const VERSION = "0.1.0";

/** A reducer, or null for a replace field (LangGraph's LastValue). */
export type Reducer = ((a: never, b: never) => unknown) | null;

export function applyFor(graph: string, fields: Record<string, Reducer>): GraphSpec["apply"] {
  return (values: Values, updates: readonly TaskUpdate[]): string[] => {
    const writes: Record<string, unknown[]> = {};
    for (const u of updates) for (const k of Object.keys(u.values)) (writes[k] ??= []).push(u.values[k]);
    const written: string[] = [];
    for (const k of Object.keys(writes)) {
      if (!(k in fields)) continue;
      const op = fields[k]!;
      values[k] = op
        ? fold(graph, k, k in values, values[k], writes[k]!, op as (a: unknown, b: never) => unknown)
        : replace(graph, k, writes[k]!);
      written.push(k);
    }
    return written;
  };
}

export function inputFor(graph: string, keys: readonly string[]): GraphSpec["input"] {
  return (raw: unknown): Values => {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw))
      throw new GraphInputError(`graph "${graph}": input must be an object`, { graph });
    const out: Values = {};
    for (const k of Object.keys(raw)) {
      if (!keys.includes(k))
        throw new GraphInputError(`graph "${graph}": unknown input field "${k}"`, { graph, field: k });
      out[k] = (raw as Values)[k];
    }
    return out;
  };
}

export function pick(keys: readonly string[]): (v: Values) => Values {
  return (v: Values) => {
    const o: Values = {};
    for (const k of keys) if (k in v) o[k] = v[k];
    return o;
  };
}

export interface NodeOpts extends Partial<Omit<NodeSpec, "name" | "call" | "read" | "check">> {
  reads?: readonly string[];
  writes?: readonly string[];
}

export type NodeFn = (input: never, ctx: NodeContext) => unknown;

export interface GraphOpts {
  name?: string;
  fields: Record<string, Reducer>;
  defaults?: () => Values;
  input?: readonly string[];
  output?: readonly string[];
  nodes: readonly NodeSpec[];
  start: { edges?: readonly string[]; joins?: readonly number[]; branches?: readonly BranchSpec[] };
  joins?: readonly { sources: readonly string[]; target: string }[];
  interruptBefore?: readonly string[];
  interruptAfter?: readonly string[];
  recursionLimit?: number;
  vars?: GraphSpec["vars"];
  stateful?: boolean;
}

/** node(name, fn, opts) with the graph name bound (for check errors) */
export function nodeFactory(graph: string, allFields: readonly string[]) {
  return (name: string, fn: NodeFn, o: NodeOpts = {}): NodeSpec => {
    const reads = o.reads ?? allFields;
    const writes = o.writes ?? allFields;
    const { reads: _r, writes: _w, ...rest } = o;
    return {
      name,
      read: pick(reads),
      call: fn as NodeSpec["call"],
      sync: o.sync ?? false,
      check: (u: Values) => {
        for (const k of Object.keys(u)) {
          if (!writes.includes(k))
            throw new InvalidUpdateError(`graph "${graph}": node "${name}" may not write field "${k}"`, {
              graph,
              node: name,
              field: k,
            });
        }
      },
      edges: o.edges ?? [],
      joins: o.joins ?? [],
      branches: o.branches ?? [],
      ...rest,
    };
  };
}

export function graph(o: GraphOpts): GraphSpec {
  const name = o.name ?? "G";
  const keys = Object.keys(o.fields);
  return {
    name,
    compilerVersion: VERSION,
    init: o.defaults ?? (() => ({})),
    input: inputFor(name, o.input ?? keys),
    output: pick(o.output ?? keys),
    outputFields: o.output ?? keys,
    apply: applyFor(name, o.fields),
    nodes: o.nodes,
    start: { edges: o.start.edges ?? [], joins: o.start.joins ?? [], branches: o.start.branches ?? [] },
    joins: o.joins ?? [],
    interruptBefore: o.interruptBefore ?? [],
    interruptAfter: o.interruptAfter ?? [],
    ...(o.recursionLimit !== undefined ? { recursionLimit: o.recursionLimit } : {}),
    vars: o.vars ?? ((over, inherited) => ({ ...inherited, ...over })),
    ...(o.stateful ? { stateful: true } : {}),
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export const concat = (a: readonly unknown[], b: unknown) => a.concat(b as unknown[]);

/**
 * Reference §1.4 / §8.3 #1, written exactly as generated code would be: nodes `zeta`, `alpha` (slow) and
 * `Beta` from START, plus Sends w(1), w(0) from a START router, all appending to `log`.
 */
export function writeOrderSpec(): GraphSpec {
  const G = "WriteOrder";
  return {
    name: G,
    compilerVersion: VERSION,
    init: () => ({ log: [] }),
    input: (raw: unknown): Values => {
      if (typeof raw !== "object" || raw === null)
        throw new GraphInputError(`graph "${G}": input must be an object`, { graph: G });
      const r = raw as Values;
      for (const k of Object.keys(r))
        if (k !== "log") throw new GraphInputError(`graph "${G}": unknown input field "${k}"`, { graph: G, field: k });
      if ("log" in r && !Array.isArray(r.log))
        throw new GraphInputError(`graph "${G}": field "log" must be string[]`, { graph: G, field: "log" });
      return "log" in r ? { log: r.log } : {};
    },
    output: (v: Values): Values => ("log" in v ? { log: v.log } : {}),
    outputFields: ["log"],
    apply: (values: Values, updates: readonly TaskUpdate[]): string[] => {
      let logW = false;
      for (const u of updates) {
        const x = u.values;
        if ("log" in x) {
          values.log = foldOne("log" in values, values.log as string[], x.log, append);
          logW = true;
        }
      }
      return logW ? ["log"] : [];
    },
    nodes: [
      {
        name: "zeta",
        read: (v: Values) => ({ log: v.log }),
        call: () => ({ log: ["zeta"] }),
        sync: true,
        check: () => {},
        edges: [],
        joins: [],
        branches: [],
      },
      {
        name: "alpha",
        read: (v: Values) => ({ log: v.log }),
        call: async () => {
          await sleep(30);
          return { log: ["alpha"] };
        },
        sync: false,
        check: () => {},
        edges: [],
        joins: [],
        branches: [],
      },
      {
        name: "Beta",
        read: (v: Values) => ({ log: v.log }),
        call: () => ({ log: ["Beta"] }),
        sync: true,
        check: () => {},
        edges: [],
        joins: [],
        branches: [],
      },
      {
        name: "w",
        read: (v: Values) => ({ log: v.log }),
        call: async (n: unknown) => {
          await sleep(n === 1 ? 20 : 1);
          return { log: [`w:${String(n)}`] };
        },
        sync: false,
        check: () => {},
        edges: [],
        joins: [],
        branches: [],
      },
    ],
    start: {
      edges: ["zeta", "alpha", "Beta"],
      joins: [],
      branches: [() => [new Send("w", 1), new Send("w", 0)]],
    },
    joins: [],
    interruptBefore: [],
    interruptAfter: [],
    vars: (o: Values, i: Values) => ({ ...i, ...o }),
  };
}
