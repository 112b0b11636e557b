/**
 * Crossed threads (issue 8, defect 2): `thread_id`, `checkpoint_ns` and `checkpoint_id` must be strings or
 * finite numbers (LangGraph's rule). The runtime used to read `String(thread_id)`, so every object id was
 * "[object Object]" and { user: "bob" } read and resumed { user: "alice" }'s thread. Every other value is
 * now INVALID_CONFIG naming the key — and the graph, from the runtime — on every saver, whether the saver
 * is called by a graph or directly.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { Command, MemorySaver, type CheckpointSaver, type RunnableConfig } from "@graphc/runtime";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { compileThreads } from "../durability/fixtures/thread-graph.ts";
import { tempDir } from "../temp-dir.ts";
import { checkpoint, meta } from "./conformance.ts";
import { postgresUrl } from "./pg-env.ts";

const tmp = tempDir("thread-ids");
const url = postgresUrl();
const schema = `graphc_thread_ids_${process.pid}_${Date.now().toString(36)}`;
const closers: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const close of closers) await close();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
  tmp.remove();
});

const savers: { name: string; make: () => CheckpointSaver }[] = [
  { name: "MemorySaver", make: () => new MemorySaver() },
  {
    name: "SqliteSaver",
    make: () => {
      const s = new SqliteSaver(join(tmp.dir, `ids-${closers.length}.db`));
      closers.push(() => s.close());
      return s;
    },
  },
  {
    name: "PostgresSaver",
    make: () => {
      const s = PostgresSaver.fromConnString(url, { schema });
      closers.push(() => s.end());
      return s;
    },
  },
];

/** Values that are neither strings nor finite numbers, with what the message says was found. */
const BAD: [label: string, value: unknown][] = [
  ["an object", { user: "alice" }],
  ["an array", ["alice"]],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
  ["boolean true", true],
  ["a symbol", Symbol("alice")],
  ["a bigint", 7n],
  ["a function", () => "alice"],
];
const KEYS = ["thread_id", "checkpoint_ns", "checkpoint_id"] as const;

async function drain(it: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A config whose `key` is `value`, the others valid. */
function configWith(key: (typeof KEYS)[number], value: unknown): RunnableConfig {
  return { configurable: { thread_id: "t", checkpoint_ns: "", [key]: value } } as RunnableConfig;
}

async function rejection(
  p: () => Promise<unknown>,
): Promise<{ code?: string; field?: string; graph?: string; message: string }> {
  try {
    await p();
  } catch (e) {
    return e as { code?: string; field?: string; graph?: string; message: string };
  }
  throw new Error("expected a rejection");
}

describe.each(savers)("config ids on $name", ({ make }) => {
  it("alice and bob with object thread ids are refused: neither can read or resume the other's thread", async () => {
    const saver = make();
    const app = compileThreads(saver);
    const alice = { configurable: { thread_id: { user: "alice" } } } as never;
    const bob = { configurable: { thread_id: { user: "bob" } } } as never;
    const expected = { code: "INVALID_CONFIG", field: "thread_id", graph: "Threads" };
    await expect(app.invoke({ log: ["alice's secret"] }, alice)).rejects.toMatchObject(expected);
    await expect(app.getState(bob)).rejects.toMatchObject(expected);
    await expect(app.invoke(new Command({ resume: "bob's answer" }), bob)).rejects.toMatchObject(expected);
    await expect(app.updateState(bob, { log: ["bob"] })).rejects.toMatchObject(expected);
    // nothing was stored under any thread
    expect(await drain(saver.list({}))).toEqual([]);
    // string ids stay apart
    await app.invoke({ log: ["alice's secret"] }, { configurable: { thread_id: "alice" } });
    expect((await app.getState({ configurable: { thread_id: "bob" } })).values).toEqual({});
    expect((await app.getState({ configurable: { thread_id: "alice" } })).values).toEqual({ log: ["alice's secret"] });
  });

  it("a finite number is the thread of its decimal string", async () => {
    const saver = make();
    const app = compileThreads(saver);
    const r = await app.invoke({ log: ["n"] }, { configurable: { thread_id: 42 } } as never);
    expect(r).toMatchObject({ __interrupt__: [{ value: "answer?" }] });
    const state = await app.getState({ configurable: { thread_id: "42" } });
    expect(state.values).toEqual({ log: ["n"] });
    expect(state.config.configurable?.thread_id).toBe("42");
    const tuple = await saver.getTuple({ configurable: { thread_id: 42 } } as never);
    expect(tuple?.checkpoint.id).toBe(state.config.configurable?.checkpoint_id);
  });

  it.each(KEYS)("every public method of the runtime refuses a bad %s, naming the key and the graph", async (key) => {
    const app = compileThreads(make());
    for (const [found, value] of BAD) {
      const config = configWith(key, value) as never;
      const calls: [string, () => Promise<unknown>][] = [
        ["invoke", () => app.invoke({ log: [] }, config)],
        ["stream", () => drain(app.stream({ log: [] }, config))],
        ["getState", () => app.getState(config)],
        ["getStateHistory", () => drain(app.getStateHistory(config))],
        [
          "getStateHistory before",
          () => drain(app.getStateHistory({ configurable: { thread_id: "t" } }, { before: config })),
        ],
        ["updateState", () => app.updateState(config, { log: ["x"] })],
      ];
      for (const [method, call] of calls) {
        if (method === "getStateHistory before" && key !== "checkpoint_id") continue;
        const e = await rejection(call);
        expect({ method, found, code: e.code, field: e.field, graph: e.graph }).toEqual({
          method,
          found,
          code: "INVALID_CONFIG",
          field: key,
          graph: "Threads",
        });
        expect(e.message).toContain(
          `Graph "Threads": config.configurable.${key} must be a string or a finite number, got ${found}.`,
        );
      }
    }
  });

  it.each(KEYS)("every public method of the saver refuses a bad %s, naming the key", async (key) => {
    const saver = make();
    for (const [found, value] of BAD) {
      const config = configWith(key, value);
      const calls: [string, () => Promise<unknown>][] = [
        ["getTuple", () => saver.getTuple(config)],
        ["list", () => drain(saver.list(config))],
        ["list before", () => drain(saver.list({ configurable: { thread_id: "t" } }, { before: config }))],
        ["put", () => saver.put(config, checkpoint({ a: 1 }), meta(0), {})],
        [
          "putWrites",
          () =>
            saver.putWrites(
              { ...config, configurable: { checkpoint_id: "c", ...config.configurable } },
              [["a", 1]],
              "task",
            ),
        ],
      ];
      if (key === "thread_id") {
        calls.push(["deleteThread", () => saver.deleteThread(value as string)]);
        if (saver.lockThread) calls.push(["lockThread", () => saver.lockThread!(value as string, { wait: false })]);
      }
      for (const [method, call] of calls) {
        if (method === "list before" && key !== "checkpoint_id") continue;
        const e = await rejection(call);
        expect({ method, found, code: e.code, field: e.field }).toEqual({
          method,
          found,
          code: "INVALID_CONFIG",
          field: key,
        });
        expect(e.message).toBe(`config.configurable.${key} must be a string or a finite number, got ${found}.`);
      }
    }
  });
});
