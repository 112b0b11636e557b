/**
 * Node / subgraph options and graph limits: option entries -> normalised values. The same function serves
 * bind (no reporter: invalid values are simply left out of the model) and 3-check/options.ts (with a
 * reporter: every bad name or value becomes a diagnostic), so the rules live in one place.
 */
import type { OptionEntry, OptionValue } from "../../../grammar/ast.ts";
import type { Span } from "../../../grammar/span.ts";
import type { Diagnostic } from "../../../grammar/diagnostic.ts";
import { d, rel } from "../../diagnostics/messages.ts";
import { suggest } from "../../diagnostics/did-you-mean.ts";
import type { NodeOptions } from "./model.ts";

export type Report = (diag: Diagnostic) => void;
const ignore: Report = () => {};

export const NODE_OPTIONS = ["retry", "timeout", "cache", "defer", "on_error"] as const;
/** options only a function node takes */
export const FUNCTION_OPTIONS = ["uses"] as const;
/** options only a subgraph node takes (on a function node: G6010) */
export const SUBGRAPH_OPTIONS = ["stateful"] as const;
export const RETRY_OPTIONS = ["attempts", "backoff", "factor", "max_interval", "jitter"] as const;
export const TIMEOUT_OPTIONS = ["run", "idle"] as const;
export const CACHE_OPTIONS = ["ttl", "key"] as const;
export const LIMIT_OPTIONS = ["recursion"] as const;

/** one valid example per option, for the `= help:` line of G6006 */
export const OPTION_EXAMPLES: Record<string, string> = {
  retry: "retry { attempts: 3, backoff: 500ms, factor: 2 }",
  "retry.attempts": "attempts: 3",
  "retry.backoff": "backoff: 500ms",
  "retry.max_interval": "max_interval: 30s",
  "retry.factor": "factor: 2",
  "retry.jitter": "jitter: true",
  timeout: "timeout 10s",
  "timeout.run": "run: 10s",
  "timeout.idle": "idle: 30s",
  cache: "cache { ttl: 5m, key: (intent, entities) }",
  "cache.ttl": "ttl: 5m",
  "cache.key": "key: (intent, entities)",
  defer: "defer",
  on_error: "on_error: fallback",
  uses: "uses: ChildGraph",
  stateful: "stateful",
  "limits.recursion": "recursion: 25",
};
const bad = (span: Span, name: string, expected: string) =>
  d.badOptionValue(span, { name, expected, example: OPTION_EXAMPLES[name] ?? name });

const DURATION = "a duration such as `500ms`, `10s`, `5m` or `1h` (or a positive number of seconds)";
const POSITIVE_INT = "a positive integer";

/** Checks names (unknown, duplicate) and returns the entries by name (first of each). Also used by meta.ts. */
export function byName(
  entries: readonly OptionEntry[],
  allowed: readonly string[],
  where: string,
  report: Report,
): Map<string, OptionEntry> {
  const out = new Map<string, OptionEntry>();
  for (const e of entries) {
    const name = e.name.name;
    if (name === "") continue;
    if (!allowed.includes(name)) {
      report(
        d.unknownOption(e.name.span, {
          name,
          where,
          available: allowed,
          suggestions: suggest(
            name,
            allowed.map((n) => ({ name: n })),
          ),
        }),
      );
      continue;
    }
    const first = out.get(name);
    if (first) {
      report(d.duplicateOption(e.name.span, { name }, [rel(first.name.span, "first given here")]));
      continue;
    }
    out.set(name, e);
  }
  return out;
}

function numberOf(v: OptionValue | undefined): number | undefined {
  if (v?.kind === "Literal" && typeof v.value === "number") return v.value;
  if (v?.kind === "Unary" && v.op === "-" && v.operand.kind === "Literal" && typeof v.operand.value === "number")
    return -v.operand.value;
  return undefined;
}

/** milliseconds from `10s` or a bare number of seconds; undefined (reported) when not a positive duration */
function duration(e: OptionEntry, label: string, report: Report): number | undefined {
  const v = e.value;
  let ms: number | undefined;
  if (v?.kind === "Duration") ms = v.ms;
  else {
    const n = numberOf(v);
    if (n !== undefined) ms = n * 1000;
  }
  if (ms === undefined || !(ms > 0) || !Number.isFinite(ms)) {
    report(bad(v?.span ?? e.span, label, DURATION));
    return undefined;
  }
  return ms;
}

function positiveInt(e: OptionEntry, label: string, report: Report): number | undefined {
  const n = numberOf(e.value);
  if (n === undefined || !Number.isInteger(n) || n < 1) {
    report(bad(e.value?.span ?? e.span, label, POSITIVE_INT));
    return undefined;
  }
  return n;
}

function boolOf(e: OptionEntry, label: string, report: Report): boolean | undefined {
  if (e.value === undefined) return true; // a bare flag
  if (e.value.kind === "Literal" && typeof e.value.value === "boolean") return e.value.value;
  report(bad(e.value.span, label, "`true` or `false`"));
  return undefined;
}

function block(e: OptionEntry, label: string, expected: string, report: Report): readonly OptionEntry[] | undefined {
  if (e.value?.kind === "OptionBlock") return e.value.entries;
  report(bad(e.value?.span ?? e.span, label, expected));
  return undefined;
}

type Parse<T> = (e: OptionEntry, label: string, report: Report) => T | undefined;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Reads the entries of one option list by name: `get("backoff", duration)` parses the `backoff` entry, if
 * given, with the label `retry.backoff` (for `prefix` "retry"); undefined when absent or invalid (reported).
 */
function reader(m: ReadonlyMap<string, OptionEntry>, prefix: string | undefined, report: Report) {
  return <T>(name: string, parse: Parse<T>): T | undefined => {
    const e = m.get(name);
    return e ? parse(e, prefix === undefined ? name : `${prefix}.${name}`, report) : undefined;
  };
}

/** `out[key] = value` unless the value is missing (optional properties stay absent, not `undefined`) */
function put<O, K extends keyof O>(out: O, key: K, value: O[K] | undefined): void {
  if (value !== undefined) out[key] = value;
}

const factorOf: Parse<number> = (e, label, report) => {
  const n = numberOf(e.value);
  if (n !== undefined && n >= 1 && Number.isFinite(n)) return n;
  report(bad(e.value?.span ?? e.span, label, "a number ≥ 1"));
  return undefined;
};

function retry(e: OptionEntry, report: Report): NodeOptions["retry"] {
  // shorthand: `retry 3` = `retry { attempts: 3 }`
  if (e.value && e.value.kind !== "OptionBlock") {
    const attempts = positiveInt(e, "retry", report);
    return attempts === undefined ? undefined : { maxAttempts: attempts };
  }
  const entries = block(e, "retry", "`{ attempts: 3, backoff: 0.5s, factor: 2, jitter: true }`", report);
  if (!entries) return undefined;
  const get = reader(byName(entries, RETRY_OPTIONS, "`retry`", report), "retry", report);
  const out: Mutable<NonNullable<NodeOptions["retry"]>> = {};
  put(out, "maxAttempts", get("attempts", positiveInt));
  put(out, "initialIntervalMs", get("backoff", duration));
  put(out, "maxIntervalMs", get("max_interval", duration));
  put(out, "backoffFactor", get("factor", factorOf));
  put(out, "jitter", get("jitter", boolOf));
  return out;
}

/** `on_error: handler` — the node name; checked against the graph's nodes by 3-check/options.ts */
export function onErrorTarget(e: OptionEntry): { name: string; span: Span } | undefined {
  const v = e.value;
  if (v?.kind === "Name") return { name: v.name.name, span: v.name.span };
  return undefined;
}

/**
 * Normalises a node's (or subgraph node's) options. `readFields`: fields the node reads (cache keys must be
 * among them). `kind`: subgraph nodes also take `stateful`.
 */
export function readNodeOptions(
  entries: readonly OptionEntry[],
  readFields: ReadonlySet<string>,
  kind: "node" | "subgraph",
  report: Report = ignore,
): NodeOptions {
  const subgraphOnly = new Set<string>(SUBGRAPH_OPTIONS);
  const own = kind === "subgraph" ? entries : entries.filter((e) => !subgraphOnly.has(e.name.name));
  if (kind === "node")
    for (const e of entries) if (subgraphOnly.has(e.name.name)) report(d.subgraphOnlyOption(e.name.span, { name: e.name.name }));
  const allowed: readonly string[] = kind === "subgraph" ? [...NODE_OPTIONS, ...SUBGRAPH_OPTIONS] : [...NODE_OPTIONS, ...FUNCTION_OPTIONS];
  const get = reader(byName(own, allowed, kind === "subgraph" ? "a subgraph node" : "a node", report), undefined, report);
  const out: Mutable<NodeOptions> = {};
  put(out, "retry", get("retry", (e) => retry(e, report)));
  Object.assign(out, get("timeout", (e) => timeout(e, report)));
  put(out, "cache", get("cache", (e) => cache(e, readFields, report)));
  put(out, "defer", get("defer", boolOf));
  put(out, "onError", get("on_error", onError));
  put(out, "stateful", get("stateful", boolOf));
  put(out, "uses", get("uses", usesOf));
  return out;
}

/** `uses: Child` — the graph a function node runs itself (`ctx.run`); resolved by bind, checked by 3-check */
const usesOf: Parse<{ name: string; span: Span }> = (e, label, report) => {
  const v = e.value;
  if (v?.kind === "Name") return { name: v.name.name, span: v.name.span };
  report(bad(v?.span ?? e.span, label, "a graph name"));
  return undefined;
};

/** `timeout 10s` (the run) or `timeout { run: 10s, idle: 30s }` */
function timeout(e: OptionEntry, report: Report): Pick<NodeOptions, "timeoutMs" | "idleTimeoutMs"> {
  const out: { timeoutMs?: number; idleTimeoutMs?: number } = {};
  if (e.value?.kind !== "OptionBlock") put(out, "timeoutMs", duration(e, "timeout", report));
  else {
    const get = reader(byName(e.value.entries, TIMEOUT_OPTIONS, "`timeout`", report), "timeout", report);
    put(out, "timeoutMs", get("run", duration));
    put(out, "idleTimeoutMs", get("idle", duration));
  }
  return out;
}

/** `cache` (a bare flag) or `cache { ttl: 5m, key: (a, b) }`; key fields must be among `readFields` */
function cache(e: OptionEntry, readFields: ReadonlySet<string>, report: Report): NodeOptions["cache"] {
  const entries = e.value === undefined ? [] : block(e, "cache", "`{ ttl: 5m, key: (field, …) }`", report);
  if (!entries) return undefined;
  const get = reader(byName(entries, CACHE_OPTIONS, "`cache`", report), "cache", report);
  const out: { ttlMs?: number; key?: string[] } = {};
  put(out, "ttlMs", get("ttl", duration));
  put(
    out,
    "key",
    get("key", (key, label) => {
      const items = cacheKey(key.value);
      const notRead = items?.find((i) => !readFields.has(i.name));
      if (items && !notRead) return items.map((i) => i.name);
      report(bad(notRead?.span ?? key.value?.span ?? key.span, label, "a tuple of fields the node reads"));
      return undefined;
    }),
  );
  return out;
}

const onError: Parse<string> = (e, label, report) => {
  const target = onErrorTarget(e);
  if (!target) report(bad(e.value?.span ?? e.span, label, "a node name"));
  return target?.name;
};

function cacheKey(v: OptionValue | undefined): { name: string; span: Span }[] | undefined {
  if (v?.kind === "Tuple") return v.items.map((i) => ({ name: i.name, span: i.span }));
  if (v?.kind === "Name") return [{ name: v.name.name, span: v.name.span }];
  return undefined;
}

/** `limits { recursion: N }` */
export function readLimits(entries: readonly OptionEntry[], report: Report = ignore): { recursion?: number } {
  const recursion = reader(byName(entries, LIMIT_OPTIONS, "`limits`", report), "limits", report)("recursion", positiveInt);
  return recursion === undefined ? {} : { recursion };
}
