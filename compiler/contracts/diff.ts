/**
 * Compares two manifests graph by graph (a graph is `file` + `name`) and classes every change: breaking
 * (callers or parents stop working), dangerous (behaviour changes under them), safe. Types are compared
 * as sets of values (schema-includes.ts), with the variance of their position: an input may widen but not
 * narrow; an output may narrow but not widen. The rules and their reasons are listed in docs/contracts.md.
 */
import type { JsonSchema, JsonValue } from "../schema/json-schema.ts";
import { majorOf } from "../phases/2-bind/meta.ts";
import type { Change, ChangeLevel, DiffResult, GraphDiff, Subject } from "./diff-types.ts";
import { slotChanges } from "./diff-slots.ts";
import type { GraphEntry, InterfaceEntry, Manifest } from "./manifest-types.ts";
import { includes, jsonEqual } from "./schema-includes.ts";

export function diffManifests(before: Manifest, after: Manifest): DiffResult {
  const key = (g: GraphEntry) => `${g.file}#${g.name}`;
  const old = new Map(before.graphs.map((g) => [key(g), g]));
  const now = new Map(after.graphs.map((g) => [key(g), g]));
  const graphs: GraphDiff[] = [];
  for (const [k, g] of now) {
    const was = old.get(k);
    const changes =
      was === undefined
        ? [change("safe", "graph-added", `graph \`${g.name}\` added`, GRAPH)]
        : [...graphChanges(was, g), ...slotChanges(was, g, before, after, contractChanges)];
    if (changes.length > 0) graphs.push(verdict(g, was, changes));
  }
  for (const [k, g] of old) {
    if (now.has(k)) continue;
    const changes = [change("breaking", "graph-removed", `graph \`${g.name}\` removed (callers and parent graphs lose it)`, GRAPH)];
    graphs.push({ name: g.name, file: g.file, from: g.meta.version, majorBumped: false, fails: true, removed: true, changes });
  }
  graphs.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { graphs, fails: graphs.some((g) => g.fails) };
}

const GRAPH: Subject = { kind: "graph" };
const change = (level: ChangeLevel, kind: string, message: string, subject: Subject): Change => ({ level, kind, message, subject });

function verdict(g: GraphEntry, was: GraphEntry | undefined, changes: Change[]): GraphDiff {
  const from = majorOf(was?.meta.version);
  const to = majorOf(g.meta.version);
  const majorBumped = from !== undefined && to !== undefined && to > from;
  const fails = !majorBumped && changes.some((c) => c.level === "breaking");
  return { name: g.name, file: g.file, from: was?.meta.version, to: g.meta.version, majorBumped, fails, removed: false, changes };
}

function graphChanges(a: GraphEntry, b: GraphEntry): Change[] {
  return [...schemaChanges(a, b, "input"), ...schemaChanges(a, b, "output"), ...fieldChanges(a, b), ...varChanges(a, b), ...interruptChanges(a, b), ...nodeChanges(a, b), ...implementsChanges(a, b), ...metaChanges(a, b)];
}

// ---------------------------------------------------------------- types

type Relation = "same" | "wider" | "narrower" | "different";

/** how type `b` relates to type `a`: the same set of values, a superset, a subset, or neither */
function relation(a: JsonSchema, aRoot: JsonSchema, b: JsonSchema, bRoot: JsonSchema): Relation {
  const aInB = includes({ schema: a, root: aRoot }, { schema: b, root: bRoot });
  const bInA = includes({ schema: b, root: bRoot }, { schema: a, root: aRoot });
  return aInB && bInA ? "same" : aInB ? "wider" : bInA ? "narrower" : "different";
}

const props = (s: JsonSchema) => (s["properties"] ?? {}) as Record<string, JsonSchema>;
const requiredOf = (s: JsonSchema) => new Set((s["required"] ?? []) as string[]);
const typeText = (g: Contract, name: string) => `\`${g.fields[name]?.type ?? "?"}\``;

// ---------------------------------------------------------------- input and output

/** An interface's contract compared like a graph's: its input and output fields and their reducers. */
function contractChanges(a: InterfaceEntry, b: InterfaceEntry): Change[] {
  const reducers = Object.entries(a.fields).flatMap(([name, fa]) => {
    const fb = b.fields[name];
    return fb === undefined || fb.reducer === fa.reducer ? [] : [change("breaking", "reducer-changed", `reducer of \`${name}\` changed: ${fa.reducer} → ${fb.reducer}`, { kind: "field", name })];
  });
  return [...schemaChanges(a, b, "input"), ...schemaChanges(a, b, "output"), ...reducers];
}

type Contract = Pick<GraphEntry, "input" | "output" | "fields">;

function schemaChanges(a: Contract, b: Contract, side: "input" | "output"): Change[] {
  const out: Change[] = [];
  const pa = props(a[side]);
  const pb = props(b[side]);
  const ra = requiredOf(a[side]);
  const rb = requiredOf(b[side]);
  const at = (name: string): Subject => ({ kind: "field", name });
  for (const name of Object.keys(pa)) {
    if (pb[name] === undefined) {
      const why = side === "input" ? "callers that pass it are rejected" : "callers that read it get nothing";
      out.push(change("breaking", `${side}-field-removed`, `${side} field \`${name}\` removed (${why})`, GRAPH));
      continue;
    }
    const rel = relation(pa[name]!, a[side], pb[name]!, b[side]);
    const types = `${typeText(a, name)} → ${typeText(b, name)}`;
    // an input may accept more than before, an output may promise less wide values than before
    const fine = side === "input" ? "wider" : "narrower";
    if (rel === fine) out.push(change("safe", `${side}-field-${rel === "wider" ? "widened" : "narrowed"}`, `${side} field \`${name}\` ${rel === "wider" ? "widened" : "narrowed"}: ${types}`, at(name)));
    else if (rel !== "same") {
      const what = rel === "different" ? "changed type" : rel === "wider" ? "widened" : "narrowed";
      out.push(change("breaking", `${side}-field-${rel === "different" ? "type-changed" : what}`, `${side} field \`${name}\` ${what}: ${types}`, at(name)));
    }
    if (side === "input" && !ra.has(name) && rb.has(name)) out.push(change("breaking", "input-field-now-required", `input field \`${name}\` is now required`, at(name)));
    if (side === "input" && ra.has(name) && !rb.has(name)) out.push(change("safe", "input-field-now-optional", `input field \`${name}\` is now optional`, at(name)));
  }
  for (const name of Object.keys(pb)) {
    if (pa[name] !== undefined) continue;
    if (side === "input" && rb.has(name)) out.push(change("breaking", "input-field-added-required", `required input field \`${name}\` added (every caller must now pass it)`, at(name)));
    else out.push(change("safe", `${side}-field-added`, `${side} field \`${name}\` added`, at(name)));
  }
  return out;
}

// ---------------------------------------------------------------- channels: reducers, defaults, state-only fields

function fieldChanges(a: GraphEntry, b: GraphEntry): Change[] {
  const out: Change[] = [];
  const contract = new Set([...Object.keys(props(a.input)), ...Object.keys(props(a.output))]);
  for (const [name, fa] of Object.entries(a.fields)) {
    const fb = b.fields[name];
    const at: Subject = { kind: "field", name };
    if (fb === undefined) {
      if (!contract.has(name)) out.push(change("dangerous", "state-field-removed", `state field \`${name}\` removed (checkpoints of running threads still hold it)`, GRAPH));
      continue;
    }
    if (fa.reducer !== fb.reducer) out.push(change("breaking", "reducer-changed", `reducer of \`${name}\` changed: ${fa.reducer} → ${fb.reducer} (parents writing to it get different results)`, at));
    if (!jsonEqual(fa.default, fb.default)) out.push(change("dangerous", "default-changed", `default of \`${name}\` changed: ${shown(fa.default)} → ${shown(fb.default)}`, at));
    if (!contract.has(name)) {
      const rel = relation(props(a.state)[name] ?? {}, a.state, props(b.state)[name] ?? {}, b.state);
      if (rel !== "same") out.push(change("dangerous", "state-field-type-changed", `state field \`${name}\` changed type: ${typeText(a, name)} → ${typeText(b, name)} (checkpoints of running threads hold the old type)`, at));
    }
  }
  for (const name of Object.keys(b.fields)) {
    if (a.fields[name] === undefined && props(b.input)[name] === undefined && props(b.output)[name] === undefined)
      out.push(change("safe", "state-field-added", `state field \`${name}\` added`, { kind: "field", name }));
  }
  return out;
}

const shown = (v: JsonValue | undefined) => (v === undefined ? "none" : JSON.stringify(v));

// ---------------------------------------------------------------- vars

function varChanges(a: GraphEntry, b: GraphEntry): Change[] {
  const out: Change[] = [];
  for (const [name, va] of Object.entries(a.vars)) {
    const vb = b.vars[name];
    const at: Subject = { kind: "var", name };
    if (vb === undefined) {
      out.push(change("dangerous", "var-removed", `variable \`${name}\` removed (a run that sets it is no longer configured by it)`, GRAPH));
      continue;
    }
    const rel = relation(va.schema, va.schema, vb.schema, vb.schema);
    if (rel === "wider") out.push(change("safe", "var-widened", `variable \`${name}\` widened: \`${va.type}\` → \`${vb.type}\``, at));
    else if (rel !== "same") out.push(change("breaking", rel === "narrower" ? "var-narrowed" : "var-type-changed", `variable \`${name}\` ${rel === "narrower" ? "narrowed" : "changed type"}: \`${va.type}\` → \`${vb.type}\``, at));
    if (!va.required && vb.required) out.push(change("breaking", "var-now-required", `variable \`${name}\` lost its default (every run must now set it)`, at));
    else if (!jsonEqual(va.default, vb.default) || va.template !== vb.template)
      out.push(change("dangerous", "var-default-changed", `default of variable \`${name}\` changed: ${varDefault(va)} → ${varDefault(vb)}`, at));
  }
  for (const [name, vb] of Object.entries(b.vars)) {
    if (a.vars[name] !== undefined) continue;
    const at: Subject = { kind: "var", name };
    if (vb.required) out.push(change("breaking", "var-added-required", `variable \`${name}\` added without a default (every run must set it)`, at));
    else out.push(change("safe", "var-added", `variable \`${name}\` added`, at));
  }
  return out;
}

const varDefault = (v: GraphEntry["vars"][string]) => (v.template !== undefined ? JSON.stringify(v.template) : shown(v.default));

// ---------------------------------------------------------------- interrupts, nodes, subgraphs, meta

function interruptChanges(a: GraphEntry, b: GraphEntry): Change[] {
  const out: Change[] = [];
  for (const when of ["before", "after"] as const) {
    for (const n of b.interrupts[when])
      if (!a.interrupts[when].includes(n)) out.push(change("dangerous", "interrupt-added", `new interrupt ${when} \`${n}\` (runs now stop there and wait to be resumed)`, { kind: "node", name: n }));
    for (const n of a.interrupts[when])
      if (!b.interrupts[when].includes(n)) out.push(change("dangerous", "interrupt-removed", `interrupt ${when} \`${n}\` removed (runs no longer stop there for review)`, b.nodes.some((x) => x.name === n) ? { kind: "node", name: n } : GRAPH));
  }
  return out;
}

function nodeChanges(a: GraphEntry, b: GraphEntry): Change[] {
  const out: Change[] = [];
  const before = new Map(a.nodes.map((n) => [n.name, n]));
  const after = new Map(b.nodes.map((n) => [n.name, n]));
  for (const name of before.keys())
    if (!after.has(name)) out.push(change("dangerous", "node-removed", `node \`${name}\` removed (a thread checkpointed before it cannot resume there)`, GRAPH));
  for (const name of after.keys()) if (!before.has(name)) out.push(change("safe", "node-added", `node \`${name}\` added`, { kind: "node", name }));
  const subs = new Map(a.subgraphs.map((s) => [s.node, s]));
  for (const s of b.subgraphs) {
    const was = subs.get(s.node);
    if (was === undefined) continue;
    if (was.graph !== s.graph || (was.source !== s.source && s.source !== "inline"))
      out.push(change("dangerous", "subgraph-changed", `\`${s.node}\` now runs \`${s.graph}\` (${s.source}) instead of \`${was.graph}\` (${was.source})`, { kind: "node", name: s.node }));
  }
  return out;
}

function implementsChanges(a: GraphEntry, b: GraphEntry): Change[] {
  const names = (g: GraphEntry) => new Set(g.implements.map((i) => i.name));
  const [before, after] = [names(a), names(b)];
  return [
    ...[...before].filter((n) => !after.has(n)).map((n) => change("breaking", "interface-dropped", `no longer implements \`${n}\` (parents that use it as a \`${n}\` lose it)`, GRAPH)),
    ...[...after].filter((n) => !before.has(n)).map((n) => change("safe", "interface-added", `now implements \`${n}\``, GRAPH)),
  ];
}

function metaChanges(a: GraphEntry, b: GraphEntry): Change[] {
  const out: Change[] = [];
  for (const k of ["version", "owner", "description"] as const) {
    if (a.meta[k] === b.meta[k]) continue;
    out.push(change("safe", `${k}-changed`, `${k} ${a.meta[k] === undefined ? "set" : "changed"}: ${shown(a.meta[k])} → ${shown(b.meta[k])}`, GRAPH));
  }
  return out;
}
