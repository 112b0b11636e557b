/**
 * Option entries (`retry { attempts: 3 }`, `timeout 10s`, `defer`, `limits { recursion: 15 }`) and field
 * declarations (`name: Type = default reduce R ephemeral`) with their aligned columns.
 */
import type { FieldDecl, LimitsBlock, MetaBlock, OptionBlock, OptionEntry, OptionValue } from "../../grammar/ast.ts";
import { type Ctx, bodyOf, deeper, entry, fits, noComments } from "./context.ts";
import { exprText, typeText } from "./inline.ts";
import { type Row, block, layoutList } from "./rows.ts";

/**
 * Options directly in a node or subgraph body read `name value` with the values aligned (`timeout 10s`)
 * when the value is a literal, duration, block or tuple, and `name: value` otherwise (`on_error: x`);
 * inside an option block or `limits` they always read `name: value`.
 */
export function optionRow(ctx: Ctx, o: OptionEntry, style: "body" | "block"): Row {
  const colon = o.value !== undefined && (style === "block" || !isBareValue(o.value));
  const name = colon ? `${o.name.name}:` : o.name.name;
  if (o.value === undefined) return { kind: "aligned", group: `option-${style}`, parts: [name] };
  const value = valueLines(ctx, o.value);
  if (value.length === 1) return { kind: "aligned", group: `option-${style}`, parts: [name, value[0]!] };
  return { kind: "lines", lines: [`${name} ${value[0]!}`, ...value.slice(1)] };
}

/** Values the grammar accepts after an option name without a colon (`timeout 10s`, `retry { .. }`). */
function isBareValue(v: OptionValue): boolean {
  return v.kind === "Duration" || v.kind === "OptionBlock" || v.kind === "Tuple" || v.kind === "Literal";
}

function valueLines(ctx: Ctx, v: OptionValue): string[] {
  switch (v.kind) {
    case "Duration":
      return [v.raw];
    case "Tuple":
      return [`(${v.items.map((i) => i.name).join(", ")})`];
    case "OptionBlock":
      return optionBlockLines(ctx, v, "");
    default:
      return [exprText(v)];
  }
}

/** `{ a: 1, b }` on one line when it fits and holds no comment; otherwise one entry per line. */
export function optionBlockLines(ctx: Ctx, b: OptionBlock | LimitsBlock | MetaBlock, head: string): string[] {
  const prefix = head === "" ? "" : `${head} `;
  if (b.entries.length === 0 && noComments(ctx, b)) return [`${prefix}{}`];
  const inline = `{ ${b.entries.map((e) => inlineOption(e)).join(", ")} }`;
  if (noComments(ctx, b) && fits(ctx, prefix + inline)) return [prefix + inline];
  const inner = deeper(ctx);
  const layout = layoutList(
    ctx.src,
    b.entries.map((e) => entry(e, () => optionRow(inner, e, "block"))),
    bodyOf(ctx, b, b.span.start.offset),
  );
  return block(head, layout);
}

function inlineOption(o: OptionEntry): string {
  if (o.value === undefined) return o.name.name;
  const v = o.value;
  const text =
    v.kind === "Duration"
      ? v.raw
      : v.kind === "Tuple"
        ? `(${v.items.map((i) => i.name).join(", ")})`
        : v.kind === "OptionBlock"
          ? v.entries.length === 0
            ? "{}"
            : `{ ${v.entries.map(inlineOption).join(", ")} }`
          : exprText(v);
  return `${o.name.name}: ${text}`;
}

// ---------------------------------------------------------------- fields

/** True when the field is a bare name (`input { topic }`). */
export function isBareField(f: FieldDecl): boolean {
  return f.type === undefined && f.default === undefined && f.reducer === undefined && !f.ephemeral;
}

/**
 * Columns: `name:` | type | `= default` | `reduce R ephemeral`. The default column is followed by two
 * spaces, as in the language reference's examples:
 *     notes:    Note[]    = []  reduce append
 */
export function fieldRow(f: FieldDecl): Row {
  const name = f.type === undefined ? f.name.name : `${f.name.name}:`;
  const type = f.type === undefined ? "" : typeText(f.type);
  const dflt = f.default === undefined ? "" : `= ${exprText(f.default)} `;
  const tail = [f.reducer === undefined ? "" : `reduce ${f.reducer.name}`, f.ephemeral ? "ephemeral" : ""]
    .filter((s) => s !== "")
    .join(" ");
  return { kind: "aligned", group: "field", parts: [name, type, dflt, tail] };
}
