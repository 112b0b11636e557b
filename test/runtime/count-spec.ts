/**
 * A hand-written GraphSpec of two fields (`count` replaced, `log` appended) for the runtime's entry tests
 * (core-entry, lean-entry). It imports "@graphc/runtime/core" only, so it installs nothing.
 */
import {
  InvalidUpdateError,
  append,
  fold,
  lastValue,
  oneSet,
  replace,
  type GraphSpec,
  type NodeSpec,
  type TaskUpdate,
  type Values,
} from "../../runtime/core.ts";
import type { Command } from "../../runtime/command.ts";

/** A node of graph `graph` that counts one step and logs its name (unless `extra` says otherwise). */
export function countNode(graph: string, name: string, edges: string[], extra: Partial<NodeSpec> = {}): NodeSpec {
  return {
    name,
    read: (v) => ({ count: v["count"] }),
    call: (input) => ({ count: (input as { count: number }).count + 1, log: [name] }),
    sync: true,
    check: (u) => {
      for (const k in u)
        if (k !== "count" && k !== "log")
          throw new InvalidUpdateError(`node "${name}" cannot write ${k}`, { graph, node: name, field: k });
    },
    edges,
    joins: [],
    branches: [],
    ...extra,
  };
}

/** Graph `graph` of `nodes`, started at `a`. */
export function countSpec(graph: string, nodes: NodeSpec[], extra: Partial<GraphSpec> = {}): GraphSpec {
  return {
    name: graph,
    compilerVersion: "0.1.0",
    init: () => ({ count: 0, log: [] }),
    input: (raw) => ({ ...(raw as Values) }),
    output: (v) => ({ count: v["count"], log: v["log"] }),
    outputFields: ["count", "log"],
    apply: (v: Values, updates: readonly TaskUpdate[]) => {
      const count: unknown[] = [];
      const log: unknown[] = [];
      for (const u of updates) {
        if ("count" in u.values) count.push(u.values["count"]);
        if ("log" in u.values) log.push(u.values["log"]);
      }
      const written: string[] = [];
      if (count.length > 0) {
        v["count"] = replace(graph, "count", count);
        written.push("count");
      }
      if (log.length > 0) {
        v["log"] = fold(graph, "log", true, v["log"] as string[], log, append);
        written.push("log");
      }
      return written;
    },
    nodes,
    start: { edges: ["a"], joins: [], branches: [] },
    joins: [],
    interruptBefore: [],
    interruptAfter: [],
    vars: (o, inherited) => ({ ...inherited, ...o }),
    ...extra,
  };
}

/** The spec's `applyOne` (a lone update applied bare), which a static graph's spec has: generated code always gives one. */
export function countApplyOne(v: Values, u: Values, written: string[] | undefined): void {
  if ("count" in u) {
    v["count"] = lastValue(u["count"]);
    written?.push("count");
  }
  if ("log" in u) {
    v["log"] = oneSet(v["log"] as string[], u["log"] as string[], append<string>);
    written?.push("log");
  }
}

/**
 * A Command that is not an instance of graphc's class (LangGraph.js's has the same fields and tag): making
 * it installs nothing, unlike `new Command` (runtime/command-class.ts), so what runs it must be installed.
 */
export function taggedCommand(args: { update?: Values; goto?: string[] }): Command {
  return { lg_name: "Command", update: args.update, goto: args.goto ?? [], graph: undefined, resume: undefined };
}
