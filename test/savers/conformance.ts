/**
 * Saver conformance suite: the behaviour every CheckpointSaver must share (LangGraph's BaseCheckpointSaver
 * semantics, reference §5), run by memory.test.ts, sqlite.test.ts and postgres.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Checkpoint, CheckpointMetadata, CheckpointSaver, CheckpointTuple, RunnableConfig } from "../../runtime/checkpoint/types.ts";
import { CheckpointError } from "../../runtime/checkpoint/errors.ts";
import { message, runMessagesThread } from "./messages-thread.ts";

export interface SaverUnderTest {
  saver: CheckpointSaver;
  /** characters or bytes the saver holds for everything it stored so far */
  storedSize(): Promise<number>;
  /** a second saver over the same storage (no shared cache): reads must not depend on in-process state */
  reopen?(): Promise<CheckpointSaver>;
  close?(): Promise<void>;
}

let idCounter = 0;
/** Time-ordered test ids (the saver orders by id). */
export function nextId(): string {
  return `1ef00000-0000-6000-8000-${(++idCounter).toString(16).padStart(12, "0")}`;
}

export function checkpoint(
  values: Record<string, unknown>,
  versions: Record<string, number> = {},
  id = nextId(),
): Checkpoint {
  return {
    v: 1,
    id,
    ts: new Date(1_700_000_000_000 + idCounter * 1000).toISOString(),
    channel_values: values,
    channel_versions: versions,
    versions_seen: { __input__: {}, agent: { messages: 1 } },
  };
}

export function meta(step: number, extra: Record<string, unknown> = {}): CheckpointMetadata {
  return { source: step < 0 ? "input" : "loop", step, parents: {}, ...extra };
}

export function cfg(thread: string, extra: Record<string, unknown> = {}): RunnableConfig {
  return { configurable: { thread_id: thread, ...extra } };
}

async function collect(it: AsyncIterable<CheckpointTuple>): Promise<CheckpointTuple[]> {
  const out: CheckpointTuple[] = [];
  for await (const t of it) out.push(t);
  return out;
}

const ids = (tuples: CheckpointTuple[]) => tuples.map((t) => t.checkpoint.id);

/**
 * Registers the suite. `open` gives a fresh, empty saver; `reopenable` savers must provide `reopen` (a second
 * instance over the same storage, as another process would have).
 */
export function saverConformance(
  name: string,
  open: () => Promise<SaverUnderTest>,
  reopenable: boolean,
  /** thread lengths of the growth check (4× apart); savers with a network round trip per call use shorter ones */
  growth: [number, number] = [200, 800],
): void {
  describe(`${name}: saver conformance`, () => {
    let opened: SaverUnderTest[] = [];
    const fresh = async () => {
      const s = await open();
      opened.push(s);
      return s;
    };
    // closed after each test: savers on a shared database server must not hold connections for the run
    afterEach(async () => {
      for (const s of opened) await s.close?.();
      opened = [];
    });

    it("put then getTuple gives exactly the stored checkpoint, metadata, configs", async () => {
      const { saver } = await fresh();
      const values = {
        messages: [{ id: "m1", role: "user", content: "hi", extra: undefined }],
        count: 0,
        negZero: -0,
        nothing: undefined,
        nan: Number.NaN,
        inf: Number.NEGATIVE_INFINITY,
        big: 12345678901234567890n,
        when: new Date("2024-05-06T07:08:09.010Z"),
        map: new Map<unknown, unknown>([["a", 1], [2, { b: [undefined, null] }]]),
        set: new Set([1, "x"]),
        tagLike: { $g: "u", v: 1 },
        holes: [1, undefined, 3],
        "branch:to:agent": null,
      };
      Object.defineProperty(values, "__proto__", { value: { odd: "channel name" }, enumerable: true, writable: true, configurable: true });
      const cp = checkpoint(values, { messages: 1, count: 1 });
      const m = meta(-1, { writes: { agent: { x: undefined } }, custom: [1, 2] });
      const returned = await saver.put(cfg("t1"), cp, m, { messages: 1, count: 1 });
      expect(returned).toEqual({ configurable: { thread_id: "t1", checkpoint_ns: "", checkpoint_id: cp.id } });

      const got = await saver.getTuple(cfg("t1"));
      expect(got?.checkpoint).toStrictEqual(cp);
      expect(Object.is(got?.checkpoint.channel_values.negZero, -0)).toBe(true);
      expect("nothing" in (got?.checkpoint.channel_values ?? {})).toBe(true);
      expect(got?.metadata).toStrictEqual(m);
      expect(got?.config).toEqual(returned);
      expect(got?.parentConfig).toBeUndefined();
      expect(got?.pendingWrites).toEqual([]);
      expect(await saver.getTuple(cfg("t1", { checkpoint_id: cp.id }))).toStrictEqual(got);
    });

    it("newest checkpoint by id, parentConfig, unknown ids and threads", async () => {
      const { saver } = await fresh();
      const a = checkpoint({ x: 1 }, { x: 1 });
      const b = checkpoint({ x: 2 }, { x: 2 });
      const c1 = await saver.put(cfg("t"), a, meta(-1), { x: 1 });
      await saver.put(c1, b, meta(0), { x: 2 });
      const newest = await saver.getTuple(cfg("t"));
      expect(newest?.checkpoint.id).toBe(b.id);
      expect(newest?.parentConfig).toEqual({ configurable: { thread_id: "t", checkpoint_ns: "", checkpoint_id: a.id } });
      expect((await saver.getTuple(cfg("t", { checkpoint_id: a.id })))?.checkpoint.channel_values).toEqual({ x: 1 });
      expect(await saver.getTuple(cfg("t", { checkpoint_id: "nope" }))).toBeUndefined();
      expect(await saver.getTuple(cfg("other"))).toBeUndefined();
      expect(await saver.getTuple({})).toBeUndefined();
    });

    it("keeps threads and namespaces apart", async () => {
      const { saver } = await fresh();
      await saver.put(cfg("t1"), checkpoint({ v: "root" }), meta(-1), {});
      await saver.put(cfg("t1", { checkpoint_ns: "inner:abc" }), checkpoint({ v: "child" }), meta(-1), {});
      await saver.put(cfg("t2"), checkpoint({ v: "other" }), meta(-1), {});
      expect((await saver.getTuple(cfg("t1")))?.checkpoint.channel_values).toEqual({ v: "root" });
      const child = await saver.getTuple(cfg("t1", { checkpoint_ns: "inner:abc" }));
      expect(child?.checkpoint.channel_values).toEqual({ v: "child" });
      expect(child?.config.configurable?.checkpoint_ns).toBe("inner:abc");
      expect((await saver.getTuple(cfg("t2")))?.checkpoint.channel_values).toEqual({ v: "other" });
      expect(await saver.getTuple(cfg("t2", { checkpoint_ns: "inner:abc" }))).toBeUndefined();
    });

    it("callers cannot change stored data through inputs or results", async () => {
      const { saver } = await fresh();
      const messages = [{ id: "1", content: "a" }];
      const cp = checkpoint({ messages, config: { deep: { n: 1 } } }, { messages: 1, config: 1 });
      const m = meta(0, { tags: ["x"] });
      await saver.put(cfg("t"), cp, m, { messages: 1, config: 1 });
      messages.push({ id: "2", content: "b" });
      messages[0]!.content = "changed";
      (m.tags as string[]).push("y");
      const first = await saver.getTuple(cfg("t"));
      (first!.checkpoint.channel_values.messages as unknown[]).length = 0;
      (first!.checkpoint.channel_values.config as { deep: { n: number } }).deep.n = 99;
      first!.checkpoint.channel_versions.messages = 42;
      (first!.metadata.tags as string[]).length = 0;
      const again = await saver.getTuple(cfg("t"));
      expect(again?.checkpoint.channel_values).toEqual({ messages: [{ id: "1", content: "a" }], config: { deep: { n: 1 } } });
      expect(again?.checkpoint.channel_versions).toEqual({ messages: 1, config: 1 });
      expect(again?.metadata.tags).toEqual(["x"]);
    });

    it("missing thread_id and checkpoint_id give LangGraph's errors", async () => {
      const { saver } = await fresh();
      const put = saver.put({ configurable: {} }, checkpoint({}), meta(-1), {});
      await expect(put).rejects.toThrow(
        'Failed to put checkpoint. The passed RunnableConfig is missing a required "thread_id" field in its "configurable" property',
      );
      await expect(saver.put({}, checkpoint({}), meta(-1), {})).rejects.toMatchObject({ code: "MISSING_THREAD_ID", field: "thread_id" });
      await expect(saver.putWrites({}, [["a", 1]], "task")).rejects.toThrow(/thread_id/);
      await expect(saver.putWrites(cfg("t"), [["a", 1]], "task")).rejects.toMatchObject({
        code: "MISSING_CHECKPOINT_ID",
        message: expect.stringContaining('"checkpoint_id"'),
      });
    });

    it("a value that cannot be stored is a clear error naming the channel and path, and nothing is stored", async () => {
      const { saver } = await fresh();
      const bad = checkpoint({ ok: 1, items: [{ fn: () => 1 }] }, { ok: 1, items: 1 });
      const err = await saver.put(cfg("t"), bad, meta(-1), {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CheckpointError);
      expect(err).toMatchObject({ code: "UNSERIALIZABLE_VALUE", field: 'channel "items"[0].fn' });
      expect((err as Error).message).toContain("a function");
      class Msg {
        constructor(readonly text: string) {}
      }
      await expect(saver.put(cfg("t"), checkpoint({ m: new Msg("x") }), meta(-1), {})).rejects.toThrow(/class Msg/);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      await expect(saver.put(cfg("t"), checkpoint({ c: cyclic }), meta(-1), {})).rejects.toThrow(/cycle/);
      await expect(saver.put(cfg("t"), checkpoint({}), meta(-1, { s: Symbol("x") }), {})).rejects.toThrow(/metadata/);
      expect(await saver.getTuple(cfg("t"))).toBeUndefined();
    });

    it("putWrites: ordinary writes are kept once per task and index, special channels are replaced", async () => {
      const { saver } = await fresh();
      const c = await saver.put(cfg("t"), checkpoint({}), meta(-1), {});
      await saver.putWrites(c, [["a", 1], ["b", { x: undefined }]], "task-2");
      await saver.putWrites(c, [["a", "ignored"], ["b", "ignored"], ["c", 3]], "task-2");
      await saver.putWrites(c, [["__error__", { message: "boom", name: "Error" }]], "task-1");
      await saver.putWrites(c, [["__error__", { message: "boom again", name: "Error" }]], "task-1");
      await saver.putWrites(c, [["__interrupt__", { id: "i1", value: 1 }], ["out", 7]], "task-1");
      await saver.putWrites(c, [["__interrupt__", { id: "i1", value: 2 }]], "task-1");
      await saver.putWrites(c, [["__no_writes__", null]], "00000000-0000-0000-0000-000000000000");
      // channel names that are Object.prototype keys are ordinary channels
      await saver.putWrites(c, [["toString", 1], ["constructor", 2]], "task-3");
      const got = await saver.getTuple(c);
      expect(got?.pendingWrites).toStrictEqual([
        ["00000000-0000-0000-0000-000000000000", "__no_writes__", null],
        ["task-1", "__interrupt__", { id: "i1", value: 2 }],
        ["task-1", "__error__", { message: "boom again", name: "Error" }],
        ["task-1", "out", 7],
        ["task-2", "a", 1],
        ["task-2", "b", { x: undefined }],
        ["task-2", "c", 3],
        ["task-3", "toString", 1],
        ["task-3", "constructor", 2],
      ]);
      // writes belong to their checkpoint only
      const next = await saver.put(c, checkpoint({}), meta(0), {});
      expect((await saver.getTuple(next))?.pendingWrites).toEqual([]);
      expect((await saver.getTuple(cfg("t", { checkpoint_ns: "other", checkpoint_id: c.configurable?.checkpoint_id })))).toBeUndefined();
    });

    it("writes put before their checkpoint, and a checkpoint put again, keep their pending writes and values", async () => {
      const { saver } = await fresh();
      const id = nextId();
      const named = cfg("early", { checkpoint_ns: "", checkpoint_id: id });
      // writes may arrive for an id that is not stored yet (LangGraph does not check); they show once it is
      await saver.putWrites(named, [["a", 1]], "task-1");
      const big = "x".repeat(200);
      const c = await saver.put(cfg("early"), checkpoint({ big, list: [big] }, { big: 1, list: 1 }, id), meta(-1), {});
      expect((await saver.getTuple(c))?.pendingWrites).toStrictEqual([["task-1", "a", 1]]);
      const child = await saver.put(c, checkpoint({ big, list: [big, "more"] }, { big: 1, list: 2 }), meta(0), { list: 2 });
      // the same id put again (LangGraph's INSERT OR REPLACE): its writes stay, and a child that reads a blob
      // the first version owned still reads its value
      await saver.put(cfg("early"), checkpoint({ big, n: 2 }, { big: 1, n: 1 }, id), meta(-1), {});
      await saver.putWrites(c, [["b", 2]], "task-2");
      const again = await saver.getTuple(c);
      expect(again?.checkpoint.channel_values).toStrictEqual({ big, n: 2 });
      expect(again?.pendingWrites).toStrictEqual([
        ["task-1", "a", 1],
        ["task-2", "b", 2],
      ]);
      expect((await saver.getTuple(child))?.checkpoint.channel_values).toStrictEqual({ big, list: [big, "more"] });
    });

    it("list: newest first, limit, before, metadata filter, namespaces, checkpoint_id", async () => {
      const { saver } = await fresh();
      let config = cfg("t");
      const made: string[] = [];
      for (let step = -1; step < 5; step++) {
        const cp = checkpoint({ step }, { step: step + 2 });
        made.push(cp.id);
        const extra = step === 2 ? { source: "update", who: { name: "ann", tags: ["a"] } } : {};
        config = await saver.put(config, cp, meta(step, extra), { step: step + 2 });
      }
      const sub = checkpoint({ sub: true });
      await saver.put(cfg("t", { checkpoint_ns: "child:1" }), sub, meta(-1), {});
      await saver.put(cfg("u"), checkpoint({ u: 1 }), meta(-1), {});

      const root = await collect(saver.list(cfg("t", { checkpoint_ns: "" })));
      expect(ids(root)).toEqual([...made].reverse());
      expect(root[0]?.metadata.step).toBe(4);
      expect(root[0]?.parentConfig?.configurable?.checkpoint_id).toBe(made[made.length - 2]);
      expect(ids(await collect(saver.list(cfg("t", { checkpoint_ns: "" }), { limit: 2 })))).toEqual([made[5], made[4]]);
      const before = cfg("t", { checkpoint_id: made[3] });
      expect(ids(await collect(saver.list(cfg("t", { checkpoint_ns: "" }), { before })))).toEqual([made[2], made[1], made[0]]);
      expect(ids(await collect(saver.list(cfg("t", { checkpoint_ns: "" }), { before, limit: 1 })))).toEqual([made[2]]);
      expect(ids(await collect(saver.list(cfg("t"), { filter: { source: "update" } })))).toEqual([made[3]]);
      expect(ids(await collect(saver.list(cfg("t"), { filter: { who: { name: "ann", tags: ["a"] } } })))).toEqual([made[3]]);
      expect(await collect(saver.list(cfg("t"), { filter: { who: { name: "ann" } } }))).toEqual([]);
      expect(ids(await collect(saver.list(cfg("t"), { filter: { step: 0, source: "loop" } })))).toEqual([made[1]]);
      // no namespace given: every namespace of the thread, newest first
      expect(ids(await collect(saver.list(cfg("t"))))).toEqual([sub.id, ...[...made].reverse()]);
      expect(ids(await collect(saver.list(cfg("t", { checkpoint_ns: "child:1" }))))).toEqual([sub.id]);
      expect(ids(await collect(saver.list(cfg("t", { checkpoint_id: made[2] }))))).toEqual([made[2]]);
      expect(await collect(saver.list(cfg("nobody")))).toEqual([]);
      expect(await collect(saver.list(cfg("t"), { limit: 0 }))).toEqual([]);
      // listed tuples are complete
      const listed = (await collect(saver.list(cfg("t", { checkpoint_id: made[2] }))))[0];
      expect(listed).toStrictEqual(await saver.getTuple(cfg("t", { checkpoint_ns: "", checkpoint_id: made[2] })));
    });

    it("list pages through long histories", async () => {
      const { saver } = await fresh();
      let config = cfg("long");
      const made: string[] = [];
      for (let step = 0; step < 150; step++) {
        const cp = checkpoint({ step }, { step: step + 1 });
        made.push(cp.id);
        config = await saver.put(config, cp, meta(step, { even: step % 2 === 0 }), { step: step + 1 });
      }
      expect(ids(await collect(saver.list(cfg("long"))))).toEqual([...made].reverse());
      expect(ids(await collect(saver.list(cfg("long", { checkpoint_ns: "" }))))).toEqual([...made].reverse());
      const before = cfg("long", { checkpoint_id: made[100] });
      expect(ids(await collect(saver.list(cfg("long", { checkpoint_ns: "" }), { before })))).toEqual(made.slice(0, 100).reverse());
      const odd = await collect(saver.list(cfg("long"), { filter: { even: false }, limit: 70 }));
      expect(odd.map((t) => t.metadata.step)).toEqual(Array.from({ length: 70 }, (_, i) => 149 - 2 * i));
    });

    it("deleteThread removes every namespace and write of one thread only", async () => {
      const s = await fresh();
      const { saver } = s;
      const c = await saver.put(cfg("gone"), checkpoint({ messages: longMessages(0, 20) }, { messages: 1 }), meta(-1), {});
      await saver.putWrites(c, [["x", 1]], "task");
      await saver.put(cfg("gone", { checkpoint_ns: "sub:1" }), checkpoint({ a: 1 }), meta(-1), {});
      await saver.put(cfg("kept"), checkpoint({ b: 2 }), meta(-1), {});
      await saver.deleteThread("gone");
      expect(await saver.getTuple(cfg("gone"))).toBeUndefined();
      expect(await saver.getTuple(cfg("gone", { checkpoint_ns: "sub:1" }))).toBeUndefined();
      expect(await collect(saver.list(cfg("gone")))).toEqual([]);
      expect((await saver.getTuple(cfg("kept")))?.checkpoint.channel_values).toEqual({ b: 2 });
      // the thread can start again; its old parent is gone, so the value is stored whole
      const again = checkpoint({ messages: longMessages(0, 21) }, { messages: 2 });
      await saver.put(c, again, meta(0), { messages: 2 });
      expect((await saver.getTuple(cfg("gone")))?.checkpoint).toStrictEqual(again);
      expect((await saver.getTuple(cfg("gone")))?.pendingWrites).toEqual([]);
    });

    it("forks: two children of one checkpoint keep their own values", async () => {
      const { saver } = await fresh();
      const base = await saver.put(cfg("f"), checkpoint({ messages: longMessages(0, 10) }, { messages: 1 }), meta(-1), {});
      const left = checkpoint({ messages: longMessages(0, 12) }, { messages: 2 });
      const right = checkpoint({ messages: [...longMessages(0, 10), { id: "r", content: "right".repeat(20) }] }, { messages: 2 });
      const l = await saver.put(base, left, meta(0), { messages: 2 });
      const r = await saver.put(base, right, meta(0, { source: "fork" }), { messages: 2 });
      const l2 = checkpoint({ messages: longMessages(0, 13) }, { messages: 3 });
      await saver.put(l, l2, meta(1), { messages: 3 });
      expect((await saver.getTuple(l))?.checkpoint).toStrictEqual(left);
      expect((await saver.getTuple(r))?.checkpoint).toStrictEqual(right);
      expect((await saver.getTuple(cfg("f", { checkpoint_id: l2.id })))?.checkpoint).toStrictEqual(l2);
    });

    it("unchanged channels are taken from the parent by version; changed ones are re-read", async () => {
      const s = await fresh();
      const { saver } = s;
      const big = { doc: "x".repeat(5000) };
      let config = await saver.put(cfg("v"), checkpoint({ big, n: 0 }, { big: 1, n: 1 }), meta(-1), {});
      const before = await s.storedSize();
      for (let n = 1; n <= 20; n++) {
        config = await saver.put(config, checkpoint({ big, n }, { big: 1, n: n + 1 }), meta(n - 1), { n: n + 1 });
      }
      // twenty checkpoints of a 5 kB field cost far less than one more copy of it
      expect((await s.storedSize()) - before).toBeLessThan(5000);
      expect((await saver.getTuple(cfg("v")))?.checkpoint.channel_values).toEqual({ big, n: 20 });
      // a new version of the big field with a different value is stored
      const changed = { doc: "y".repeat(5000) };
      config = await saver.put(config, checkpoint({ big: changed, n: 20 }, { big: 2, n: 21 }), meta(20), { big: 2 });
      expect((await saver.getTuple(config))?.checkpoint.channel_values.big).toEqual(changed);
    });

    it(`a messages thread of N appended messages stores O(N) data (${growth[1]} steps ≤ 5× ${growth[0]} steps)`, async () => {
      const size = async (steps: number) => {
        const s = await fresh();
        await runMessagesThread(s.saver, `grow-${steps}`, steps);
        return s.storedSize();
      };
      const small = await size(growth[0]);
      const large = await size(growth[1]);
      expect(large / small).toBeLessThanOrEqual(5);
      expect(large / small).toBeGreaterThan(2);
    });

    it("property: every checkpoint of random histories reads back exactly (appends, edits, forks, reopen)", async () => {
      const s = await fresh();
      let run = 0;
      const op = fc.oneof(
        fc.record({
          kind: fc.constant("append" as const),
          items: fc.array(fc.oneof(fc.jsonValue(), fc.constantFrom(-0, Number.NaN, undefined, "x".repeat(40))), {
            minLength: 1,
            maxLength: 4,
          }),
          wrap: fc.boolean(),
          inPlace: fc.boolean(),
        }),
        fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), item: fc.jsonValue(), grow: fc.boolean() }),
        fc.record({ kind: fc.constant("truncate" as const), keep: fc.nat() }),
        fc.record({ kind: fc.constant("scalar" as const), value: fc.oneof(fc.string(), fc.integer(), fc.constant(undefined)) }),
        fc.record({ kind: fc.constant("same" as const) }),
        fc.record({ kind: fc.constant("fork" as const), back: fc.nat() }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
          const thread = `prop-${++run}`;
          const history: { config: RunnableConfig; cp: Checkpoint }[] = [];
          let list: unknown[] = [];
          let scalar: unknown = 0;
          let versions = { list: 1, scalar: 1 };
          let config = cfg(thread);
          for (const o of ops) {
            let changed: Record<string, number> = {};
            if (o.kind === "fork" && history.length > 0) {
              const from = history[Math.max(0, history.length - 1 - (o.back % history.length))]!;
              config = from.config;
              list = structuredClone(from.cp.channel_values.list) as unknown[];
              scalar = from.cp.channel_values.scalar;
              versions = { ...(from.cp.channel_versions as typeof versions) };
            } else if (o.kind === "append") {
              // objects or bare primitives; a new array or the same one grown in place (both happen in runtimes)
              const added = o.items.map((item, i) => (o.wrap ? { id: `${history.length}-${i}`, item, pad: "p".repeat(30) } : item));
              if (o.inPlace) list.push(...added);
              else list = [...list, ...added];
            } else if (o.kind === "edit" && list.length > 0) {
              list = list.map((x, i) => (i === o.at % list.length ? { replaced: o.item } : x));
              // an edit in the same step as an append: longer, but not an extension
              if (o.grow) list.push("tail");
            } else if (o.kind === "truncate") {
              list = list.slice(0, o.keep % (list.length + 1));
            } else if (o.kind === "scalar") {
              scalar = o.value;
            }
            if (o.kind === "append" || o.kind === "edit" || o.kind === "truncate") changed = { list: ++versions.list };
            if (o.kind === "scalar") changed = { scalar: ++versions.scalar };
            const cp = checkpoint({ list, scalar }, { ...versions });
            config = await s.saver.put(config, cp, meta(history.length), changed);
            history.push({ config, cp: structuredClone(cp) });
          }
          const readers = [s.saver, ...(s.reopen ? [await s.reopen()] : [])];
          for (const reader of readers) {
            for (const { config: c, cp } of history) {
              expect((await reader.getTuple(c))?.checkpoint).toStrictEqual(cp);
            }
          }
        }),
        { numRuns: 40 },
      );
    });

    if (reopenable) {
      it("a second saver over the same storage continues a thread written by the first", async () => {
        const s = await fresh();
        await runMessagesThread(s.saver, "handoff", 30);
        const other = await s.reopen!();
        const latest = await other.getTuple(cfg("handoff"));
        const messages = [...(latest!.checkpoint.channel_values.messages as unknown[]), message(30)];
        const next = checkpoint({ messages }, { messages: 32 });
        await other.put(latest!.config, next, meta(30), { messages: 32 });
        expect((await s.saver.getTuple(cfg("handoff")))?.checkpoint).toStrictEqual(next);
        const third = await s.reopen!();
        expect((await third.getTuple(cfg("handoff", { checkpoint_id: next.id })))?.checkpoint).toStrictEqual(next);
      });
    }
  });
}

function longMessages(from: number, to: number): Record<string, unknown>[] {
  const out = [];
  for (let i = from; i < to; i++) out.push(message(i));
  return out;
}
