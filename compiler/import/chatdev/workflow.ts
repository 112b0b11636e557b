/**
 * ChatDev 2.0 workflow files read into a checked model: the keys `graphc import chatdev` understands, each
 * problem located by its YAML path and line. ChatDev validates subgraphs only when a run starts and names
 * neither the file nor the parent node; here every problem is found at import, with its file and line.
 */
import { LineCounter, parseDocument, type Document, type Node as YamlNode } from "yaml";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import type { ImportProblems } from "./problems.ts";

export type Scalar = string | number | boolean;

export interface Workflow {
  readonly file: string;
  /** `graph.id` (or the file's base name) */
  readonly id: string;
  readonly description?: string | undefined;
  /** root `vars` (a file subgraph's own vars included) */
  readonly vars: ReadonlyMap<string, Scalar>;
  readonly nodes: readonly WorkflowNode[];
  readonly edges: readonly WorkflowEdge[];
  readonly start: readonly string[];
  readonly end: readonly string[];
  /** keys present that have no counterpart (`memory`, `is_majority_voting`, …), with their YAML paths */
  readonly unsupported: readonly { path: string; line: number; what: string }[];
}

export interface WorkflowNode {
  readonly id: string;
  readonly type: string;
  readonly description?: string | undefined;
  readonly config: Readonly<Record<string, unknown>>;
  readonly contextWindow: number;
  /** `config.type: file` → the path as written; `config` → the inline graph */
  readonly subgraph?: { readonly kind: "file"; readonly path: string } | { readonly kind: "config"; readonly graph: Workflow };
  readonly path: string;
  readonly line: number;
}

export type Condition =
  | { readonly kind: "always"; readonly value: boolean }
  | { readonly kind: "keyword"; readonly any: readonly string[]; readonly none: readonly string[]; readonly regex: readonly string[]; readonly caseSensitive: boolean }
  | { readonly kind: "function"; readonly name: string };

export interface WorkflowEdge {
  readonly from: string;
  readonly to: string;
  readonly condition: Condition;
  readonly trigger: boolean;
  readonly carryData: boolean;
  /** edge keys with no counterpart (`process`, `dynamic`, `keep_message`, …) */
  readonly unsupported: readonly string[];
  readonly path: string;
  readonly line: number;
}

const NO_COUNTERPART_GRAPH_KEYS = ["memory", "is_majority_voting", "organization", "log_level", "initial_instruction"];
const NO_COUNTERPART_EDGE_KEYS = ["process", "dynamic", "keep_message", "clear_context", "clear_kept_context"];

/** Parses a workflow file's text; `null` when it is not a workflow (the problems say why). */
export function readWorkflow(file: string, text: string, problems: ImportProblems): Workflow | null {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const at = (node: YamlNode | null | undefined) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  for (const e of doc.errors) problems.error(file, e.linePos?.[0]?.line ?? 1, "", `not valid YAML: ${e.message}`);
  if (doc.errors.length > 0) return null;
  const reader = new Reader(file, doc, problems, at);
  return reader.design();
}

class Reader {
  constructor(
    private readonly file: string,
    private readonly doc: Document,
    private readonly problems: ImportProblems,
    private readonly at: (node: YamlNode | null | undefined) => number,
  ) {}

  private node(path: readonly (string | number)[]): YamlNode | null | undefined {
    return this.doc.getIn(path, true) as YamlNode | null | undefined;
  }

  private line(path: readonly (string | number)[]): number {
    for (let p = [...path]; p.length > 0; p.pop()) {
      const n = this.node(p);
      if (n) return this.at(n);
    }
    return 1;
  }

  private error(path: readonly (string | number)[], message: string): void {
    this.problems.error(this.file, this.line(path), dotted(path), message);
  }

  design(): Workflow | null {
    const root = this.doc.toJS() as unknown;
    if (!isRecord(root)) {
      this.error([], "a workflow file is a mapping (`graph:`, optional `vars:`)");
      return null;
    }
    // a file subgraph may be a bare graph mapping (ChatDev's `_load_graph_dict`)
    const graphPath = "graph" in root ? ["graph"] : [];
    const graph = "graph" in root ? root["graph"] : root;
    if (!isRecord(graph)) {
      this.error(graphPath, "`graph` must be a mapping");
      return null;
    }
    const vars = new Map<string, Scalar>();
    const rawVars = root["vars"];
    if (rawVars !== undefined && graphPath.length > 0) {
      if (!isRecord(rawVars)) this.error(["vars"], "`vars` must be a mapping of names to values");
      else {
        for (const [k, v] of Object.entries(rawVars)) {
          if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") vars.set(k, v);
          else this.error(["vars", k], `var \`${k}\` must be a string, number or boolean`);
        }
      }
    }
    const base = this.file.replace(/^.*[\\/]/, "").replace(/\.ya?ml$/i, "");
    return this.graph(graph, graphPath, vars, base);
  }

  private graph(g: Record<string, unknown>, path: (string | number)[], vars: ReadonlyMap<string, Scalar>, fallbackId: string): Workflow | null {
    if ("vars" in g) this.error([...path, "vars"], "vars is only allowed at root level (DesignConfig.vars)");
    const rawNodes = g["nodes"];
    const rawEdges = g["edges"] ?? [];
    if (!Array.isArray(rawNodes)) {
      this.error([...path, "nodes"], "a graph must define `nodes` (a list)");
      return null;
    }
    if (!Array.isArray(rawEdges)) {
      this.error([...path, "edges"], "`edges` must be a list");
      return null;
    }
    const nodes: WorkflowNode[] = [];
    const seen = new Set<string>();
    rawNodes.forEach((n, i) => {
      const node = this.workflowNode(n, [...path, "nodes", i], vars);
      if (node === null) return;
      if (seen.has(node.id)) this.error([...path, "nodes", i, "id"], `duplicate node id \`${node.id}\``);
      else nodes.push(node);
      seen.add(node.id);
    });
    const edges: WorkflowEdge[] = [];
    rawEdges.forEach((e, i) => {
      const edge = this.edge(e, [...path, "edges", i], seen);
      if (edge === null) return;
      // duplicate from→to edges collapse into one, the last definition wins (ChatDev's add_successor)
      const dup = edges.findIndex((x) => x.from === edge.from && x.to === edge.to);
      if (dup >= 0) edges.splice(dup, 1);
      edges.push(edge);
    });
    const list = (key: string): string[] => {
      const v = g[key];
      const ids = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
      const out: string[] = [];
      ids.forEach((id, i) => {
        const p = Array.isArray(v) ? [...path, key, i] : [...path, key];
        if (typeof id !== "string") this.error(p, `\`${key}\` lists node ids (strings)`);
        else if (!seen.has(id)) this.error(p, `\`${key}\` names unknown node \`${id}\`${didYouMean(id, seen)}`);
        else if (!out.includes(id)) out.push(id);
      });
      return out;
    };
    const unsupported = NO_COUNTERPART_GRAPH_KEYS.filter((k) => g[k] !== undefined && g[k] !== false && !(Array.isArray(g[k]) && (g[k] as unknown[]).length === 0)).map((k) => ({
      path: dotted([...path, k]),
      line: this.line([...path, k]),
      what: `graph key \`${k}\``,
    }));
    return {
      file: this.file,
      id: typeof g["id"] === "string" && g["id"] !== "" ? g["id"] : fallbackId,
      description: typeof g["description"] === "string" ? g["description"] : undefined,
      vars,
      nodes,
      edges,
      start: list("start"),
      end: list("end"),
      unsupported,
    };
  }

  private workflowNode(n: unknown, path: (string | number)[], vars: ReadonlyMap<string, Scalar>): WorkflowNode | null {
    if (!isRecord(n)) {
      this.error(path, "a node is a mapping with `id`, `type` and `config`");
      return null;
    }
    const id = n["id"];
    const type = n["type"];
    if (typeof id !== "string" || id === "") {
      this.error([...path, "id"], "a node needs a string `id`");
      return null;
    }
    if (typeof type !== "string") {
      this.error([...path, "type"], `node \`${id}\` needs a \`type\``);
      return null;
    }
    const config = n["config"] ?? {};
    if (!isRecord(config)) {
      this.error([...path, "config"], `node \`${id}\`: \`config\` must be a mapping`);
      return null;
    }
    const cw = n["context_window"];
    const base = {
      id,
      type,
      description: typeof n["description"] === "string" ? n["description"] : undefined,
      config,
      contextWindow: typeof cw === "number" ? cw : 0,
      path: dotted(path),
      line: this.line(path),
    };
    if (type !== "subgraph") return base;
    if (n["config"] === undefined || n["config"] === null) {
      this.error([...path, "config"], "subgraph configuration requires 'config' block");
      return null;
    }
    if ("vars" in config) this.error([...path, "config", "vars"], "vars is only allowed at root level (DesignConfig.vars)");
    const source = config["type"];
    const inner = config["config"];
    if (source === "file") {
      const p = isRecord(inner) ? inner["path"] : undefined;
      if (typeof p !== "string" || p === "") {
        this.error([...path, "config", "config", "path"], `subgraph node \`${id}\`: a file source needs \`config.path\``);
        return null;
      }
      return { ...base, subgraph: { kind: "file", path: p } };
    }
    if (source === "config") {
      if (!isRecord(inner)) {
        this.error([...path, "config", "config"], `subgraph node \`${id}\`: an inline source needs a graph in \`config.config\``);
        return null;
      }
      const graph = this.graph(inner, [...path, "config", "config"], vars, id);
      return graph === null ? null : { ...base, subgraph: { kind: "config", graph } };
    }
    this.error([...path, "config", "type"], "subgraph.type must be one of ['config', 'file']");
    return null;
  }

  private edge(e: unknown, path: (string | number)[], ids: ReadonlySet<string>): WorkflowEdge | null {
    if (!isRecord(e)) {
      this.error(path, "an edge is a mapping with `from` and `to`");
      return null;
    }
    const from = e["from"];
    const to = e["to"];
    for (const [key, v] of [["from", from], ["to", to]] as const) {
      if (typeof v !== "string") {
        this.error([...path, key], `an edge needs \`${key}\` (a node id)${"source" in e || "target" in e ? "; ChatDev reads `from`/`to`, not `source`/`target`" : ""}`);
        return null;
      }
      if (!ids.has(v)) {
        this.error([...path, key], `edge references unknown ${key === "from" ? "source" : "target"} node '${v}'${didYouMean(v, ids)}`);
        return null;
      }
    }
    const condition = this.condition(e["condition"], [...path, "condition"]);
    if (condition === null) return null;
    return {
      from: from as string,
      to: to as string,
      condition,
      trigger: e["trigger"] !== false,
      carryData: e["carry_data"] !== false,
      unsupported: NO_COUNTERPART_EDGE_KEYS.filter((k) => e[k] !== undefined && e[k] !== false && e[k] !== null),
      path: dotted(path),
      line: this.line(path),
    };
  }

  private condition(c: unknown, path: (string | number)[]): Condition | null {
    if (c === undefined || c === null || c === true || c === "true") return { kind: "always", value: true };
    if (c === false || c === "false") return { kind: "always", value: false };
    if (typeof c === "string") return { kind: "function", name: c };
    if (isRecord(c) && c["type"] === "function" && isRecord(c["config"]) && typeof c["config"]["name"] === "string") {
      return { kind: "function", name: c["config"]["name"] };
    }
    if (isRecord(c) && c["type"] === "keyword") {
      const cfg = isRecord(c["config"]) ? c["config"] : {};
      const strings = (k: string): string[] | null => {
        const v = cfg[k] ?? [];
        const list = Array.isArray(v) ? v : [v];
        return list.every((x) => typeof x === "string") ? (list as string[]) : null;
      };
      const [any, none, regex] = [strings("any"), strings("none"), strings("regex")];
      if (any === null || none === null || regex === null) {
        this.error([...path, "config"], "keyword condition lists (`any`, `none`, `regex`) hold strings");
        return null;
      }
      for (const r of regex) {
        try {
          new RegExp(r);
        } catch {
          this.error([...path, "config", "regex"], `not a valid regular expression: ${JSON.stringify(r)}`);
          return null;
        }
      }
      return { kind: "keyword", any, none, regex, caseSensitive: cfg["case_sensitive"] !== false };
    }
    this.error(path, "a condition is true/false, a function name, {type: function, config: {name}} or {type: keyword, config: {any, none, regex}}");
    return null;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** `graph.nodes[1].config` */
export function dotted(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

function didYouMean(name: string, known: Iterable<string>): string {
  const best = suggest(name, [...known].map((k) => ({ name: k })))[0];
  return best === undefined ? "" : ` (did you mean \`${best.name}\`?)`;
}
