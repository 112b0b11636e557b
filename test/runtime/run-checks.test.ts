/**
 * Run-time data checks in generated code (issue 8, defect 5) and generated code that does not depend on
 * globals the user's imports shadow (defect 7), on the golden output of test/fixtures/emit/hostile.graph:
 * a missing required input, update values of the wrong type (node updates, Command updates from a node and
 * as input, Overwrite values), inherited keys of an update, and resume Commands that cannot be delivered.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  Command,
  GraphInputError,
  InvalidResumeError,
  InvalidUpdateError,
  MemorySaver,
  Overwrite,
  UpdateTypeError,
} from "@graphc/runtime";
import { Asks, Hostile } from "../fixtures/emit/_expected/hostile.graph.ts";
import { plan } from "../fixtures/emit/hostile.nodes.ts";

afterEach(() => {
  plan.update = {};
});

/** runs `write` with `update` as its return value */
function write(update: unknown) {
  plan.update = update;
  return Hostile.invoke({ topic: "t" });
}

async function typeError(update: unknown): Promise<UpdateTypeError> {
  const e: unknown = await write(update).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(UpdateTypeError);
  return e as UpdateTypeError;
}

describe("required inputs", () => {
  it("a missing required input is a GraphInputError naming graph and field", async () => {
    await expect(Hostile.invoke({} as never)).rejects.toThrow(GraphInputError);
    await expect(Hostile.invoke({ mood: "calm" } as never)).rejects.toThrow(
      'graph "Hostile": required input field "topic" (string) is missing',
    );
    const e = await Hostile.invoke({} as never).catch((x: unknown) => x);
    expect(e).toMatchObject({ graph: "Hostile", field: "topic", code: "GRAPH_INPUT" });
  });

  it("fields with a default (or a type admitting undefined) may be left out", async () => {
    expect(await Hostile.invoke({ topic: "t" })).toMatchObject({ topic: "t", mood: "calm", total: 0, log: ["after 0"] });
  });

  it("an explicit undefined is a wrong type, not a missing field", async () => {
    await expect(Hostile.invoke({ topic: undefined } as never)).rejects.toThrow(/input field "topic" must be string, got undefined/);
  });
});

describe("update values are checked against the field's declared type", () => {
  it('`{ total: "1" }` on a `sum` field is an UpdateTypeError naming graph, node, field, expected and actual', async () => {
    const e = await typeError({ total: "1" });
    expect(e).toBeInstanceOf(InvalidUpdateError);
    expect(e).toMatchObject({ graph: "Hostile", node: "write", field: "total", expected: "number", actual: "string", code: "INVALID_UPDATE_TYPE" });
    expect(e.message).toBe('node "write" of graph "Hostile" wrote field "total" a value of type string, expected number');
  });

  it.each([
    [{ mood: "sad" }, "mood", "Mood"],
    [{ log: 1 }, "log", "string | string[]"],
    [{ log: ["a", 2] }, "log", "string | string[]"],
    [{ tags: ["calm", "bored"] }, "tags", "Mood | Mood[]"],
    [{ meta: ["a"] }, "meta", "Partial<Record<string, string>>"],
    [{ meta: null }, "meta", "Partial<Record<string, string>>"],
    [{ point: { x: "1" } }, "point", "{ x: number; y?: string; } | undefined"],
    [{ point: [] }, "point", "{ x: number; y?: string; } | undefined"],
    [{ flag: "yes" }, "flag", "boolean | undefined"],
    [{ note: 5 }, "note", "string | null"],
    [{ total: new Overwrite("5") }, "total", "number"],
    [{ log: new Overwrite("a") }, "log", "string | string[]"],
    [{ mood: { __overwrite__: "sad" } }, "mood", "Mood"],
    // an Overwrite instance is an object with string values: its value is what would be stored
    [{ meta: new Overwrite("x") }, "meta", "Partial<Record<string, string>>"],
  ])("rejects %j", async (update, field, expected) => {
    expect(await typeError(update)).toMatchObject({ field, expected });
  });

  it("accepts every well-typed form, Overwrite included, and trusts the custom reducer's field", async () => {
    const out = await write({
      mood: "angry",
      total: 2,
      log: ["a", "b"],
      tags: "calm",
      meta: { k: "v" },
      point: { x: 1 },
      flag: undefined,
      note: null,
      first: "f",
    });
    expect(out).toMatchObject({ mood: "angry", total: 2, log: ["a", "b", "after 2"], tags: ["calm"], meta: { k: "v" }, point: { x: 1 }, note: null, first: "f" });
    expect(await write({ total: new Overwrite(7), log: new Overwrite(["x"]) })).toMatchObject({ total: 7, log: ["x", "after 7"] });
    expect(await write({ first: 42 })).toMatchObject({ first: 42 });
  });

  it("a Command update returned by a node is checked like a plain update", async () => {
    expect(await typeError(new Command({ update: { total: "1" } }))).toMatchObject({ node: "write", field: "total" });
    expect(await typeError(new Command({ update: [["log", 3]] }))).toMatchObject({ node: "write", field: "log" });
  });

  it("a Command given as input is checked by the generated checkUpdate (no node: graph and field)", async () => {
    const config = cfg("cmd-input", new MemorySaver());
    await Hostile.invoke({ topic: "t" }, config);
    const e = await Hostile.invoke(new Command({ update: { total: "1" }, goto: "after" }), config).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UpdateTypeError);
    expect(e).toMatchObject({ graph: "Hostile", node: undefined, field: "total", expected: "number", actual: "string" });
    expect((e as Error).message).toMatch(/^Command update given as input to graph "Hostile" wrote field "total"/);
    await expect(Hostile.invoke(new Command({ update: { nope: 1 }, goto: "after" }), config)).rejects.toThrow(
      'Command update given as input to graph "Hostile" names unknown field "nope"',
    );
    expect(await Hostile.invoke(new Command({ update: { total: 5 }, goto: "after" }), config)).toMatchObject({ total: 5 });
  });

  it("updateState values are checked too", async () => {
    const config = cfg("update-state", new MemorySaver());
    await Hostile.invoke({ topic: "t" }, config);
    await expect(Hostile.updateState(config, { total: "1" } as never, "write")).rejects.toThrow(UpdateTypeError);
    await expect(Hostile.updateState(config, { total: "1" } as never, "__start__")).rejects.toThrow(UpdateTypeError);
  });
});

describe("own keys only", () => {
  it("inherited enumerable keys of an update are never applied", async () => {
    const update = Object.create({ total: 5, evil: 1 }) as Record<string, unknown>;
    update["mood"] = "angry";
    const out = await write(update);
    expect(out).toMatchObject({ mood: "angry", total: 0, log: ["after 0"] });
    expect(out).not.toHaveProperty("evil");
  });

  it("prototype-polluting own keys are unknown keys, and Object.prototype stays clean", async () => {
    await expect(write(JSON.parse('{"__proto__": {"polluted": 1}}'))).rejects.toThrow(/cannot write "__proto__"/);
    await expect(write({ constructor: { prototype: { polluted: 1 } } })).rejects.toThrow(/cannot write "constructor"/);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("an update whose prototype is not Object.prototype is read by its own keys (a class instance works)", async () => {
    class Update {
      mood = "angry";
      total = 2;
    }
    expect(await write(new Update())).toMatchObject({ mood: "angry", total: 2 });
    // an own `__proto__` key of such an update stays a key (and is rejected), it does not become a prototype
    const sneaky = Object.create({ inherited: 1 }) as Record<string, unknown>;
    Object.defineProperty(sneaky, "__proto__", { value: { polluted: 1 }, enumerable: true });
    await expect(write(sneaky)).rejects.toThrow(/cannot write "__proto__"/);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("resume", () => {
  const saver = () => new MemorySaver();

  async function paused(thread: string, both = false) {
    const config = cfg(thread, saver());
    const out = (await Asks.invoke({ both }, config)) as { __interrupt__: { id: string; value: unknown }[] };
    return { config, ids: out.__interrupt__.map((i) => i.id) };
  }

  it("a resume on a thread that never ran is an InvalidResumeError", async () => {
    const e = await Asks.invoke(new Command({ resume: "x" }), cfg("never", saver())).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InvalidResumeError);
    expect(e).toMatchObject({ graph: "Asks", code: "INVALID_RESUME" });
    expect((e as Error).message).toBe('Cannot resume thread "never" of graph "Asks": it has never run');
  });

  it("a resume on a finished thread is an InvalidResumeError, not the old output", async () => {
    const { config } = await paused("finished");
    expect(await Asks.invoke(new Command({ resume: "yes" }), config)).toEqual({ both: false, answers: ["left: yes"] });
    await expect(Asks.invoke(new Command({ resume: "again" }), config)).rejects.toThrow(
      'Cannot resume thread "finished" of graph "Asks": it has finished (nothing is pending)',
    );
  });

  it("a resume map naming an id that is not pending is an InvalidResumeError listing it", async () => {
    const { config, ids } = await paused("wrong-id");
    const wrong = "0".repeat(32);
    const e = await Asks.invoke(new Command({ resume: { [wrong]: "v" } }), config).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InvalidResumeError);
    expect(e).toMatchObject({ ids: [wrong] });
    expect((e as Error).message).toContain(`names "${wrong}", which is not a pending interrupt id (pending: ${ids[0]})`);
    // an object mixing interrupt ids with other keys is a mistaken map, not a value
    await expect(Asks.invoke(new Command({ resume: { [ids[0]!]: "v", extra: 1 } }), config)).rejects.toThrow(InvalidResumeError);
    // the thread is still paused and resumes by its real id
    expect(await Asks.invoke(new Command({ resume: { [ids[0]!]: "ok" } }), config)).toEqual({ both: false, answers: ["left: ok"] });
  });

  it("with several pending interrupts a plain value is ambiguous; a map answers each", async () => {
    const { config, ids } = await paused("two", true);
    expect(ids).toHaveLength(2);
    await expect(Asks.invoke(new Command({ resume: "both?" }), config)).rejects.toThrow(/has 2 pending interrupts: resume them by id/);
    const out = await Asks.invoke(new Command({ resume: { [ids[0]!]: "a", [ids[1]!]: "b" } }), config);
    expect([...(out as { answers: string[] }).answers].sort()).toEqual(["left: a", "right: b"]);
  });

  it("an object whose keys are not interrupt ids is a resume value (LangGraph's rule), delivered whole", async () => {
    const { config } = await paused("object-value");
    expect(await Asks.invoke(new Command({ resume: { "wrong-id": "v" } }), config)).toEqual({
      both: false,
      answers: ["left: [object Object]"],
    });
  });
});

describe("user imports named like globals", () => {
  it("node functions imported as Array, JSON and Object run, and the generated code still uses the globals", async () => {
    // `write` is the user's `Array`, `after` its `Object`, `left`/`right` its `JSON`
    expect(await Hostile.invoke({ topic: "t" })).toMatchObject({ log: ["after 0"] });
    const out = (await Asks.invoke({ both: false }, cfg("globals", new MemorySaver()))) as { __interrupt__: unknown[] };
    expect(out.__interrupt__).toHaveLength(1);
  });
});

function cfg(thread: string, checkpointer: MemorySaver) {
  return { configurable: { thread_id: thread }, checkpointer };
}
