/**
 * Property test: hostile run-time inputs to compiled graphs (the golden output of
 * test/fixtures/emit/hostile.graph). Invoke inputs, node updates (plain, Command, Overwrite, inherited and
 * prototype-polluting keys, huge strings, values of every wrong type) and resume Commands (values, maps
 * with real, unknown and malformed ids, on threads that never ran, are paused or finished). Whatever comes
 * in: the run either succeeds with every checked field holding a value of its declared type, or fails with
 * one of graphc's typed errors; `Object.prototype` is never touched.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { Command, GraphError, MemorySaver, Overwrite } from "@graphc/runtime";
import { Asks, Hostile } from "../fixtures/emit/_expected/hostile.graph.ts";
import { plan } from "../fixtures/emit/hostile.nodes.ts";
import { runs } from "./runs.ts";

afterEach(() => {
  plan.update = {};
});

const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();
const PROTO_TO_STRING = Object.prototype.toString;

/** `Object.prototype` as it was: the same own names, nothing enumerable, `toString` untouched */
function prototypeClean(): boolean {
  const probe: Record<string, unknown> = {};
  return (
    JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort()) === JSON.stringify(PROTO_NAMES) &&
    Object.keys(Object.prototype).length === 0 &&
    Object.prototype.toString === PROTO_TO_STRING &&
    probe["polluted"] === undefined
  );
}

/** The typed errors a hostile input may produce (anything else is a crash). */
const TYPED = new Set([
  "GRAPH_INPUT",
  "INVALID_UPDATE",
  "INVALID_UPDATE_TYPE",
  "INVALID_GRAPH_NODE_RETURN_VALUE",
  "INVALID_RESUME",
  // a node's Command that writes a replaced field twice (`update: [["note", a], ["note", b]]`): LangGraph's LastValue error
  "INVALID_CONCURRENT_GRAPH_UPDATE",
  "EMPTY_INPUT", // `Command({ resume: undefined })`: nothing to do
]);

function typedError(e: unknown): string | undefined {
  if (e instanceof GraphError && TYPED.has(e.code) && e.graph !== undefined) return undefined;
  return `untyped failure: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
}

const isStr = (x: unknown) => typeof x === "string";
const isMood = (x: unknown) => x === "calm" || x === "angry";
const plainObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * What was stored breaks the declared types (an independent statement of hostile.graph's state types;
 * `first` has a custom reducer, so its values are trusted by design): a description, or undefined.
 */
function wrongTyped(out: Record<string, unknown>): string | undefined {
  const bad: string[] = [];
  const check = (field: string, ok: (x: unknown) => boolean, optional = false) => {
    if (!(field in out)) {
      if (!optional) bad.push(`${field} missing`);
    } else if (!ok(out[field])) bad.push(`${field} = ${String(out[field])}`);
  };
  check("topic", isStr, true);
  check("mood", isMood);
  check("total", (x) => typeof x === "number");
  check("log", (x) => Array.isArray(x) && x.every(isStr));
  check("tags", (x) => Array.isArray(x) && x.every(isMood));
  check("meta", (x) => plainObject(x) && Object.values(x).every(isStr));
  check("point", (x) => x === undefined || (plainObject(x) && typeof x["x"] === "number" && (x["y"] === undefined || isStr(x["y"]))), true);
  check("flag", (x) => x === undefined || typeof x === "boolean", true);
  check("note", (x) => x === null || isStr(x));
  return bad.length > 0 ? bad.join(", ") : undefined;
}

const FIELDS = ["topic", "mood", "total", "log", "tags", "meta", "point", "flag", "note", "first"];
const HOSTILE_KEYS = ["__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "nope", ""];

const huge = fc.constantFrom("x".repeat(1_000_000), "\u2028".repeat(10_000), "__proto__");
const leaf = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  huge,
  fc.constantFrom("calm", "angry", "sad", 0, 1, -1, NaN, Infinity, null, undefined, true, [], {}, ["calm"], ["a", 1]),
);
/** a value of the right type now and then, so the success path is exercised as well */
const fieldValue = fc.oneof(
  leaf,
  leaf.map((v) => new Overwrite(v)),
  leaf.map((v) => ({ __overwrite__: v })),
  fc.constantFrom("angry", 3, ["a", "b"], "calm", { k: "v" }, { x: 1 }, { x: 1, y: "y" }, false, null),
);
const key = fc.oneof(fc.constantFrom(...FIELDS), fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 5 }));
/** an own-key object built with defineProperty, so `__proto__` becomes a real own key */
const ownObject = fc.array(fc.tuple(key, fieldValue), { maxLength: 6 }).map((pairs) => {
  const o: Record<string, unknown> = {};
  for (const [k, v] of pairs) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
});
/** the same, with enumerable keys inherited from a prototype (for…in sees them, Object.keys does not) */
const inherited = fc.tuple(ownObject, ownObject).map(([proto, own]) => Object.assign(Object.create(proto) as object, own));
const update = fc.oneof(
  ownObject,
  inherited,
  ownObject.map((u) => new Command({ update: u })),
  fc.array(fc.tuple(key, fieldValue), { maxLength: 3 }).map((pairs) => new Command({ update: pairs as [string, unknown][] })),
  fc.constantFrom(JSON.parse('{"__proto__": {"polluted": 1}}') as unknown, JSON.parse('{"meta": {"__proto__": {"polluted": 1}}}') as unknown),
  leaf,
);

/** Asks' state types: `both` a boolean, `answers` strings */
function asksWrongTyped(out: Record<string, unknown>): string | undefined {
  const answers = out["answers"];
  if (typeof out["both"] !== "boolean") return `both = ${String(out["both"])}`;
  return Array.isArray(answers) && answers.every(isStr) ? undefined : `answers = ${String(answers)}`;
}

async function outcome(
  run: () => Promise<unknown>,
  wrong: (out: Record<string, unknown>) => string | undefined = wrongTyped,
): Promise<string | undefined> {
  try {
    const out = await run();
    if (!prototypeClean()) return "Object.prototype changed";
    return plainObject(out) ? wrong(out) : `result is ${String(out)}`;
  } catch (e) {
    if (!prototypeClean()) return "Object.prototype changed";
    return typedError(e);
  }
}

describe("hostile run-time inputs to compiled graphs", () => {
  it("invoke inputs: a result of the declared types, or a GraphInputError", async () => {
    const input = fc.oneof(ownObject, inherited, leaf);
    await fc.assert(
      fc.asyncProperty(input, async (i) => {
        expect(await outcome(() => Hostile.invoke(i as never))).toBeUndefined();
      }),
      { numRuns: runs(0.015) },
    );
  });

  it("node updates: stored values keep their declared types, or the run fails with a typed error", async () => {
    await fc.assert(
      fc.asyncProperty(update, async (u) => {
        plan.update = u;
        expect(await outcome(() => Hostile.invoke({ topic: "t" }))).toBeUndefined();
      }),
      { numRuns: runs(0.02) },
    );
  });

  it("Command updates given as input: the same", async () => {
    const saver = new MemorySaver();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(ownObject, async (u) => {
        const config = { configurable: { thread_id: `cmd-${n++}` }, checkpointer: saver };
        await Hostile.invoke({ topic: "t" }, config);
        expect(await outcome(() => Hostile.invoke(new Command({ update: u, goto: "after" }), config))).toBeUndefined();
      }),
      { numRuns: runs(0.005) },
    );
  });

  it("resume Commands: delivered, or an InvalidResumeError", async () => {
    const saver = new MemorySaver();
    let n = 0;
    const state = fc.constantFrom("never", "one", "two", "finished");
    const hexId = fc.stringMatching(/^[0-9a-f]{32}$/);
    await fc.assert(
      fc.asyncProperty(state, fc.integer({ min: 0, max: 5 }), fc.array(hexId, { maxLength: 2 }), leaf, async (s, shape, wrong, v) => {
        const config = { configurable: { thread_id: `resume-${n++}` }, checkpointer: saver };
        let ids: string[] = [];
        if (s !== "never") {
          const out = (await Asks.invoke({ both: s === "two" }, config)) as { __interrupt__: { id: string }[] };
          ids = out.__interrupt__.map((i) => i.id);
          if (s === "finished") await Asks.invoke(new Command({ resume: "done" }), config);
        }
        const real = Object.fromEntries(ids.map((id) => [id, v]));
        const resume = [
          v,
          real,
          Object.fromEntries(wrong.map((id) => [id, v])),
          { ...real, ...Object.fromEntries(wrong.map((id) => [id, v])) },
          { ...real, "wrong-id": v },
          { [ids[0] ?? "0".repeat(32)]: v },
        ][shape];
        expect(await outcome(() => Asks.invoke(new Command({ resume }), config), asksWrongTyped)).toBeUndefined();
      }),
      { numRuns: runs(0.005) },
    );
  });
});
