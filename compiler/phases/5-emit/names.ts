/**
 * Names of everything a generated file declares. Each graph `G` exports `G` (the compiled graph), `GSpec`,
 * `GState`, `GInput`, `GOutput`, `GVars`, `GBranchContext`, and per node `G<Node>Read`, `G<Node>Update`,
 * `G<Node>Fn` (`node_1` -> `Node1`). A name already taken in the file (a user import or type alias, an
 * earlier generated name, a runtime import) gets a `_2`, `_3`… suffix, deterministically in emit order.
 */
import { isBindingName, pascal } from "./escape.ts";
import { RUNTIME_TYPES, RUNTIME_VALUES, type RuntimeType, type RuntimeValue } from "./runtime-api.ts";

export class Scope {
  private readonly taken = new Set<string>();
  private readonly runtime = new Map<string, string>();

  /** reserve names the user's source declares (imports, type aliases) */
  reserve(name: string): void {
    this.taken.add(name);
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }

  /** a fresh binding based on `base` */
  fresh(base: string): string {
    const b = isBindingName(base) ? base : `_${base}`;
    let name = b;
    for (let i = 2; this.taken.has(name); i++) name = `${b}_${i}`;
    this.taken.add(name);
    return name;
  }

  /** The local name of a runtime export in this file (aliased when the user took the name). */
  rt(name: RuntimeValue | RuntimeType): string {
    let local = this.runtime.get(name);
    if (local === undefined) {
      local = this.taken.has(name) ? this.fresh(`${name}_rt`) : name;
      this.taken.add(local);
      this.runtime.set(name, local);
    }
    return local;
  }

  /** the runtime imports used, sorted: [exported, local, isType] */
  runtimeImports(): { name: string; local: string; type: boolean }[] {
    const values = new Set<string>(RUNTIME_VALUES);
    return [...this.runtime.entries()]
      .map(([name, local]) => ({ name, local, type: !values.has(name) && (RUNTIME_TYPES as readonly string[]).includes(name) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}

export interface GraphNames {
  readonly graph: string;
  readonly spec: string;
  readonly state: string;
  readonly input: string;
  readonly output: string;
  readonly vars: string;
  readonly branchContext: string;
  readonly nodeName: string;
  /** `GUpdate`: an update of any of the graph's fields (what `updateState` accepts) */
  readonly update: string;
  node(name: string): { read: string; update: string; fn: string };
  branch(from: string, index: number): { fn: string; key: string };
  /** `GParentCommand`: what a child's node may send to this graph with Command.PARENT (graphs with subgraph nodes) */
  parentCommand(): string;
  /** `GSend`: a Send packet to one of the graph's nodes (graphs with a send branch or a router without cases) */
  send(): string;
  /** the stateful copy of a subgraph node's child spec (`GInnerStatefulSpec`) */
  statefulSpec(node: string): string;
}

/** Allocates a graph's names. The graph's own const is its DSL name (reserved and checked by the caller). */
export function graphNames(scope: Scope, graph: string, inlineNode?: string): GraphNames {
  // an inline graph's synthesised name (`Parent$node`) is not for people: its names come from the node
  const base = inlineNode !== undefined ? scope.fresh(pascal(inlineNode)) : isBindingName(graph) ? graph : `Graph${pascal(graph)}`;
  const nodes = new Map<string, { read: string; update: string; fn: string }>();
  const branches = new Map<string, { fn: string; key: string }>();
  const stateful = new Map<string, string>();
  let parentCommand: string | undefined;
  let send: string | undefined;
  const names: GraphNames = {
    graph: base,
    spec: scope.fresh(`${base}Spec`),
    state: scope.fresh(`${base}State`),
    input: scope.fresh(`${base}Input`),
    output: scope.fresh(`${base}Output`),
    vars: scope.fresh(`${base}Vars`),
    branchContext: scope.fresh(`${base}BranchContext`),
    nodeName: scope.fresh(`${base}Node`),
    update: scope.fresh(`${base}Update`),
    node(name) {
      let n = nodes.get(name);
      if (!n) {
        const p = `${base}${pascal(name)}`;
        n = { read: scope.fresh(`${p}Read`), update: scope.fresh(`${p}Update`), fn: scope.fresh(`${p}Fn`) };
        nodes.set(name, n);
      }
      return n;
    },
    branch(from, index) {
      const k = `${from}#${index}`;
      let b = branches.get(k);
      if (!b) {
        const p = `${base}${from === "START" ? "Start" : pascal(from)}${index > 0 ? index + 1 : ""}`;
        b = { fn: scope.fresh(`${p}Branch`), key: scope.fresh(`${p}RouteKey`) };
        branches.set(k, b);
      }
      return b;
    },
    // allocated on first use, so graphs without subgraph nodes keep their names unchanged
    parentCommand() {
      return (parentCommand ??= scope.fresh(`${base}ParentCommand`));
    },
    send() {
      return (send ??= scope.fresh(`${base}Send`));
    },
    statefulSpec(node) {
      let s = stateful.get(node);
      if (s === undefined) stateful.set(node, (s = scope.fresh(`${base}${pascal(node)}StatefulSpec`)));
      return s;
    },
  };
  return names;
}
