/**
 * A generator of well-formed `.graph` text: random state fields, schemas, vars, limits, nodes with options,
 * subgraphs (inline ones recursively), every edge form and inline conditions — laid out at random (commas
 * or line breaks, odd spacing, blank lines) with comments scattered between members. The text is always
 * syntactically valid; it is not meant to pass the checker.
 */
import fc from "fast-check";

type Gen = fc.GeneratorValue;

const pick = <T>(g: Gen, xs: readonly T[]): T => xs[g(fc.nat, { max: xs.length - 1 })]!;
const chance = (g: Gen, p: number): boolean => g(fc.double, { min: 0, max: 1, noNaN: true }) < p;
const count = (g: Gen, min: number, max: number): number => g(fc.integer, { min, max });

const TYPES = [
  "string", "number", "boolean", "string[]", "number[]", `"a" | "b" | "c"`, "{ x: string, y?: number }",
  "Record<string, number>", "(string | null)[]", "Note", "Message[]", "string?", "{}", "unknown",
];
const DEFAULTS = ["0", "1.5", `"text"`, "true", "null", "[]", `["a", "b"]`, "{}", `{ x: "1", "y z": 2 }`, `"\${ENV:-dflt}"`];
const REDUCERS = ["append", "sum", "merge", "union", "replace", "messages", "myReducer"];
const DURATIONS = ["10s", "500ms", "0.5s", "5m", "1h"];

/** random spacing: the formatter must not depend on it */
function sp(g: Gen): string {
  return pick(g, [" ", " ", "  ", "\t", " "]);
}

function comment(g: Gen): string {
  return chance(g, 0.5) ? `// note ${count(g, 0, 99)}` : `/* c${count(g, 0, 99)} */`;
}

/** members joined by commas or line breaks, with optional comments and blank lines between them */
function members(g: Gen, items: string[], indent: string): string {
  if (items.length === 0) return chance(g, 0.5) ? "" : `\n${indent}`;
  // an item ending in a line break (an interrupt list) must not be followed by a comma
  const lineOnly = (it: string) => it.endsWith("\n");
  if (!items.some(lineOnly) && chance(g, 0.2)) return ` ${items.join(`,${sp(g)}`)} `;
  let out = "\n";
  for (const it of items) {
    if (chance(g, 0.1)) out += "\n";
    if (chance(g, 0.15)) out += `${indent}${comment(g)}\n`;
    out += `${indent}${it.trimEnd()}`;
    if (chance(g, 0.15)) out += `${sp(g)}// trailing ${count(g, 0, 9)}`;
    out += chance(g, 0.1) && !lineOnly(it) ? ",\n" : "\n";
  }
  return out;
}

function expr(g: Gen, fields: readonly string[], depth: number): string {
  const leaf = () =>
    pick(g, [
      () => pick(g, fields),
      () => pick(g, ["0", "3", `"x"`, "true", "false", "null", "2.5"]),
      () => `len(${pick(g, fields)})`,
      () => `${pick(g, fields)}.${pick(g, ["a", "error", "size"])}`,
      () => `${pick(g, fields)}[${pick(g, ["0", "-1", "2"])}]`,
    ])();
  if (depth <= 0 || chance(g, 0.35)) return leaf();
  return pick(g, [
    () => `${expr(g, fields, depth - 1)} ${pick(g, ["==", "!=", "<", "<=", ">", ">="])} ${expr(g, fields, depth - 1)}`,
    () => `${expr(g, fields, depth - 1)} ${pick(g, ["&&", "||"])} ${expr(g, fields, depth - 1)}`,
    () => `!${expr(g, fields, 0)}`,
    () => `-${expr(g, fields, 0)}`,
    () => `(${expr(g, fields, depth - 1)})`,
    () => `${pick(g, fields)} in [${pick(g, [`"a"`, "1"])}, ${pick(g, [`"b"`, "2"])}]`,
  ])();
}

function field(g: Gen, name: string): string {
  let s = `${name}:${sp(g)}${pick(g, TYPES)}`;
  if (chance(g, 0.4)) s += ` = ${pick(g, DEFAULTS)}`;
  if (chance(g, 0.4)) s += ` reduce ${pick(g, REDUCERS)}`;
  if (chance(g, 0.1)) s += " ephemeral";
  return s;
}

function option(g: Gen, nodes: readonly string[]): string {
  return pick(g, [
    () => `retry { attempts: ${count(g, 1, 5)}, backoff: ${pick(g, DURATIONS)}, factor: 2, jitter: ${pick(g, ["true", "false"])} }`,
    () => `timeout ${pick(g, DURATIONS)}`,
    () => `cache { ttl: ${pick(g, DURATIONS)}, key: (f0, f1) }`,
    () => "defer",
    () => `on_error: ${pick(g, nodes)}`,
    () => `timeout: ${pick(g, DURATIONS)}`,
  ])();
}

function targets(g: Gen, nodes: readonly string[]): string {
  if (chance(g, 0.3)) return `[${pick(g, nodes)}, ${pick(g, [...nodes, "END"])}]`;
  return pick(g, [...nodes, "END"]);
}

function edge(g: Gen, nodes: readonly string[], fields: readonly string[]): string {
  const n = () => pick(g, nodes);
  return pick(g, [
    () => `START${sp(g)}->${sp(g)}${n()} -> ${n()} -> END`,
    () => `${n()} -> [${n()}, ${n()}]`,
    () => `[${n()}, ${n()}] -> ${n()}`,
    () => `${n()} -> route(router) { ${n()}: ${targets(g, nodes)}, "other key": ${targets(g, nodes)} }`,
    () => `${n()} -> route(router)`,
    () => `${n()} -> send(fanOut)`,
    () => {
      const cases = Array.from({ length: count(g, 1, 3) }, () => `${expr(g, fields, 2)} => ${targets(g, nodes)}`);
      if (chance(g, 0.7)) cases.push(`_ => ${targets(g, nodes)}`);
      return `${n()} -> {${members(g, cases, "    ")}}`;
    },
  ])();
}

function schemaRef(g: Gen, fields: readonly string[]): string {
  if (chance(g, 0.2)) return pick(g, ["State", "Input", "Output", "P"]);
  const k = count(g, 0, Math.min(3, fields.length));
  return `{${sp(g)}${fields.slice(0, k).join(", ")}${sp(g)}}`;
}

function graphBody(g: Gen, depth: number): string[] {
  const fields = Array.from({ length: count(g, 1, 3) }, (_, i) => `f${i}`);
  const nodes = Array.from({ length: count(g, 1, 3) }, (_, i) => `n${i}`);
  const out: string[] = [];
  out.push(`state {${members(g, fields.map((f) => field(g, f)), "    ")}}`);
  if (chance(g, 0.5)) out.push(`input${sp(g)}{ ${fields.slice(0, count(g, 1, fields.length)).join(", ")} }`);
  if (chance(g, 0.5)) out.push(`output { ${fields.slice(0, count(g, 1, fields.length)).join(", ")} }`);
  if (chance(g, 0.2)) out.push(`input { extra: string = "x", ${fields[0]} }`);
  if (chance(g, 0.3)) out.push(`private P {${members(g, ["p0: string", "p1: number = 2"], "    ")}}`);
  if (chance(g, 0.3)) out.push(`vars {${members(g, [`limit: number = 500`, `model: string = "\${MODEL:-gpt}"`], "    ")}}`);
  if (chance(g, 0.3)) out.push(`limits { recursion: ${count(g, 1, 50)} }`);
  // a comma after the node list would continue it, so an interrupt always ends its line
  if (chance(g, 0.2)) out.push(`interrupt ${pick(g, ["before", "after"])} ${nodes.join(", ")}\n`);
  for (const n of nodes) {
    let s = `node ${n}(${chance(g, 0.2) ? "" : schemaRef(g, fields)})`;
    if (chance(g, 0.85)) s += ` -> ${schemaRef(g, fields)}`;
    if (chance(g, 0.2)) s += ` goto [${nodes[0]}, END]`;
    s += ` = impl${n}`;
    if (chance(g, 0.25)) {
      s += ` {${members(g, Array.from({ length: count(g, 0, 3) }, () => option(g, nodes)), "    ")}}`;
    }
    out.push(s);
  }
  if (depth < 1 && chance(g, 0.25)) {
    const inner = graphBody(g, depth + 1).join("\n");
    out.push(`subgraph sub${depth} = graph {\n${inner}\n}`);
  }
  if (chance(g, 0.3)) {
    const body = pick(g, [
      "",
      " { in { f0 }, out { f0 } }",
      " {\n in { a <- f0, b <- len(f0), f0 }\n out { r -> f0 }\n timeout 5s\n}",
      " { in = toIn, out = fromOut }",
    ]);
    out.push(
      pick(g, [`subgraph other = Other${body}`, `subgraph other from "./other.graph"${body}`, `subgraph other from "./o.graph" as O${body}`]),
    );
  }
  out.push(`START -> ${nodes[0]}`);
  for (let i = count(g, 0, 3); i > 0; i--) out.push(edge(g, nodes, fields));
  out.push(`${nodes[nodes.length - 1]} -> END`);
  return out;
}

export function validGraphText(g: Gen): string {
  let text = "";
  if (chance(g, 0.3)) text += `${comment(g)}\n`;
  text += `import { implN, router, fanOut, myReducer, toIn, fromOut } from "./nodes.ts"\n`;
  if (chance(g, 0.5)) text += `import type { Message } from "@graphc/runtime"\n`;
  if (chance(g, 0.5)) text += `import { Other } from "./other.graph"\n`;
  if (chance(g, 0.5)) text += `\ntype Note = { title: string, body${chance(g, 0.5) ? "?" : ""}: string }\n`;
  for (let i = chance(g, 0.8) ? 1 : 2; i > 0; i--) {
    const body = graphBody(g, 0);
    text += `\ngraph G${i}${sp(g)}{${members(g, body, "  ")}}\n`;
  }
  if (chance(g, 0.2)) text += `${comment(g)}\n`;
  return text;
}
