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
/** options only a subgraph node takes (on a function node: G6010) */
export const SUBGRAPH_OPTIONS = ["stateful"] as const;
export const RETRY_OPTIONS = ["attempts", "backoff", "factor", "max_interval", "jitter"] as const;
export const TIMEOUT_OPTIONS = ["run", "idle"] as const;
export const CACHE_OPTIONS = ["ttl", "key"] as const;
export const LIMIT_OPTIONS = ["recursion"] as const;

/** one valid example per option, for the `= help:` line of G6006 */
const EXAMPLES: Record<string, string> = {
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
  stateful: "stateful",
  "limits.recursion": "recursion: 25",
};
const bad = (span: Span, name: string, expected: string) =>
  d.badOptionValue(span, { name, expected, example: EXAMPLES[name] ?? name });

const DURATION = "a duration such as `500ms`, `10s`, `5m` or `1h` (or a positive number of seconds)";
const POSITIVE_INT = "a positive integer";

/** Checks names (unknown, duplicate) and returns the entries by name (first of each). */
function byName(
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

function retry(e: OptionEntry, report: Report): NodeOptions["retry"] {
  // shorthand: `retry 3` = `retry { attempts: 3 }`
  if (e.value && e.value.kind !== "OptionBlock") {
    const attempts = positiveInt(e, "retry", report);
    return attempts === undefined ? undefined : { maxAttempts: attempts };
  }
  const entries = block(e, "retry", "`{ attempts: 3, backoff: 0.5s, factor: 2, jitter: true }`", report);
  if (!entries) return undefined;
  const m = byName(entries, RETRY_OPTIONS, "`retry`", report);
  const out: { -readonly [K in keyof NonNullable<NodeOptions["retry"]>]: NonNullable<NodeOptions["retry"]>[K] } = {};
  const attempts = m.get("attempts");
  if (attempts) {
    const n = positiveInt(attempts, "retry.attempts", report);
    if (n !== undefined) out.maxAttempts = n;
  }
  const backoff = m.get("backoff");
  if (backoff) {
    const ms = duration(backoff, "retry.backoff", report);
    if (ms !== undefined) out.initialIntervalMs = ms;
  }
  const maxInterval = m.get("max_interval");
  if (maxInterval) {
    const ms = duration(maxInterval, "retry.max_interval", report);
    if (ms !== undefined) out.maxIntervalMs = ms;
  }
  const factor = m.get("factor");
  if (factor) {
    const n = numberOf(factor.value);
    if (n === undefined || !(n >= 1) || !Number.isFinite(n))
      report(bad(factor.value?.span ?? factor.span, "retry.factor", "a number ≥ 1"));
    else out.backoffFactor = n;
  }
  const jitter = m.get("jitter");
  if (jitter) {
    const b = boolOf(jitter, "retry.jitter", report);
    if (b !== undefined) out.jitter = b;
  }
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
  for (const e of entries)
    if (own !== entries && subgraphOnly.has(e.name.name)) report(d.subgraphOnlyOption(e.name.span, { name: e.name.name }));
  const allowed: readonly string[] = kind === "subgraph" ? [...NODE_OPTIONS, ...SUBGRAPH_OPTIONS] : NODE_OPTIONS;
  const m = byName(own, allowed, kind === "subgraph" ? "a subgraph node" : "a node", report);
  const out: { -readonly [K in keyof NodeOptions]: NodeOptions[K] } = {};
  const r = m.get("retry");
  if (r) {
    const v = retry(r, report);
    if (v) out.retry = v;
  }
  const t = m.get("timeout");
  if (t) {
    if (t.value?.kind === "OptionBlock") {
      const tm = byName(t.value.entries, TIMEOUT_OPTIONS, "`timeout`", report);
      const run = tm.get("run");
      const idle = tm.get("idle");
      if (run) {
        const ms = duration(run, "timeout.run", report);
        if (ms !== undefined) out.timeoutMs = ms;
      }
      if (idle) {
        const ms = duration(idle, "timeout.idle", report);
        if (ms !== undefined) out.idleTimeoutMs = ms;
      }
    } else {
      const ms = duration(t, "timeout", report);
      if (ms !== undefined) out.timeoutMs = ms;
    }
  }
  const c = m.get("cache");
  if (c) {
    const entries = c.value === undefined ? [] : block(c, "cache", "`{ ttl: 5m, key: (field, …) }`", report);
    if (entries) {
      const cm = byName(entries, CACHE_OPTIONS, "`cache`", report);
      const cache: { ttlMs?: number; key?: string[] } = {};
      const ttl = cm.get("ttl");
      if (ttl) {
        const ms = duration(ttl, "cache.ttl", report);
        if (ms !== undefined) cache.ttlMs = ms;
      }
      const key = cm.get("key");
      if (key) {
        const items = cacheKey(key.value);
        const notRead = items?.find((i) => !readFields.has(i.name));
        if (!items || notRead) {
          report(bad(notRead?.span ?? key.value?.span ?? key.span, "cache.key", "a tuple of fields the node reads"));
        } else cache.key = items.map((i) => i.name);
      }
      out.cache = cache;
    }
  }
  const df = m.get("defer");
  if (df) {
    const b = boolOf(df, "defer", report);
    if (b !== undefined) out.defer = b;
  }
  const oe = m.get("on_error");
  if (oe) {
    const target = onErrorTarget(oe);
    if (!target) report(bad(oe.value?.span ?? oe.span, "on_error", "a node name"));
    else out.onError = target.name;
  }
  const st = m.get("stateful");
  if (st) {
    const b = boolOf(st, "stateful", report);
    if (b !== undefined) out.stateful = b;
  }
  return out;
}

function cacheKey(v: OptionValue | undefined): { name: string; span: Span }[] | undefined {
  if (v?.kind === "Tuple") return v.items.map((i) => ({ name: i.name, span: i.span }));
  if (v?.kind === "Name") return [{ name: v.name.name, span: v.name.span }];
  return undefined;
}

/** `limits { recursion: N }` */
export function readLimits(entries: readonly OptionEntry[], report: Report = ignore): { recursion?: number } {
  const m = byName(entries, LIMIT_OPTIONS, "`limits`", report);
  const r = m.get("recursion");
  if (!r) return {};
  const n = positiveInt(r, "limits.recursion", report);
  return n === undefined ? {} : { recursion: n };
}
