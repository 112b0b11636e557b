/**
 * ChatDev node ids ("ReAct Brain", "-1", "Loop Gate") as `.graph` names: snake_case identifiers, never a
 * reserved word, unique within their graph; graph ids as PascalCase graph names.
 */
const RESERVED = new Set(["graph", "in", "out", "true", "false", "null", "START", "END", "task"]);

export function snakeName(id: string): string {
  // camelCase splits only in one-word ids ("LoopGate"); "ReAct Brain" is react_brain
  const words = /[\s_-]/.test(id.replace(/^-(?=\d)/, "")) ? id : id.replace(/([a-z0-9])([A-Z])/g, "$1_$2");
  let s = words
    .replace(/^-(?=\d)/, "minus_")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (s === "") s = "node";
  if (/^\d/.test(s)) s = `n_${s}`;
  return RESERVED.has(s) ? `${s}_node` : s;
}

export function pascalName(id: string): string {
  const s = snakeName(id)
    .split("_")
    .filter((w) => w !== "")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
  return /^\d/.test(s) ? `G${s}` : s;
}

export function camelName(id: string): string {
  const p = pascalName(id);
  return p[0]!.toLowerCase() + p.slice(1);
}

/** Gives every id a distinct name made by `make` (a clash gets `_2`, `_3`, …). */
export function uniqueNames(ids: readonly string[], make: (id: string) => string, taken: Iterable<string> = []): Map<string, string> {
  const used = new Set(taken);
  const out = new Map<string, string>();
  for (const id of ids) {
    const base = make(id);
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    out.set(id, name);
  }
  return out;
}
