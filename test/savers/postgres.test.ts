import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import type { Checkpoint, RunnableConfig } from "../../runtime/checkpoint/types.ts";
import { cfg, checkpoint, meta, saverConformance } from "./conformance.ts";
import { message } from "./messages-thread.ts";
import { postgresUrl } from "./pg-env.ts";

const url = postgresUrl();
// every run (and every fresh saver) gets its own schema, so runs never see each other's rows
const runTag = `graphc_test_${process.pid}_${Date.now().toString(36)}`;
let schemas = 0;
const admin = new pg.Pool({ connectionString: url, max: 2 });
const used: string[] = [];

function schema(): string {
  const name = `${runTag}_${++schemas}`;
  used.push(name);
  return name;
}

afterAll(async () => {
  for (const s of used) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await admin.end();
});

saverConformance(
  "PostgresSaver",
  async () => {
    const name = schema();
    // small pools: the cluster is shared with other test files (and other test runs)
    const open = () => new PostgresSaver(new pg.Pool({ connectionString: url, max: 2 }), { schema: name }, true);
    const saver = open();
    await saver.setup();
    const others: PostgresSaver[] = [];
    return {
      saver,
      storedSize: () => saver.storedChars(),
      reopen: async () => {
        const other = open();
        others.push(other);
        return other;
      },
      close: async () => {
        for (const o of others) await o.end();
        await saver.end();
      },
    };
  },
  true,
  [100, 400],
);

describe("PostgresSaver scale-out", () => {
  let name: string;
  let workers: PostgresSaver[];
  beforeAll(() => {
    name = schema();
    workers = [0, 1, 2, 3].map(() => new PostgresSaver(new pg.Pool({ connectionString: url, max: 4 }), { schema: name }, true));
  });
  afterAll(async () => {
    for (const w of workers) await w.end();
  });

  it("setup() is idempotent and safe when several processes run it at once", async () => {
    await Promise.all(workers.map((w) => w.setup()));
    await Promise.all(workers.map((w) => w.setup()));
    const tables = await admin.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [name]);
    expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual(["graphc_blobs", "graphc_checkpoints", "graphc_meta", "graphc_writes"]);
  });

  it("workers alternating on 40 concurrent threads keep every thread's history exact and separate", async () => {
    const threads = Array.from({ length: 40 }, (_, i) => `shared-${i}`);
    const written = new Map<string, Checkpoint[]>();
    await Promise.all(
      threads.map(async (thread, t) => {
        let config: RunnableConfig = cfg(thread);
        let messages: unknown[] = [];
        const mine: Checkpoint[] = [];
        for (let step = 0; step < 12; step++) {
          // each step is done by another worker, which must continue from the stored state
          const worker = workers[(t + step) % workers.length]!;
          const latest = step === 0 ? undefined : await worker.getTuple(cfg(thread));
          if (latest !== undefined) {
            expect(latest.checkpoint).toStrictEqual(mine[mine.length - 1]);
            config = latest.config;
            messages = latest.checkpoint.channel_values.messages as unknown[];
          }
          messages = [...messages, { ...message(step), thread }];
          const cp = checkpoint({ messages, owner: thread }, { messages: step + 1, owner: 1 });
          if (step > 0) await worker.putWrites(config, [["messages", step]], `task-${step}`);
          config = await worker.put(config, cp, meta(step, { thread }), { messages: step + 1 });
          mine.push(structuredClone(cp));
        }
        written.set(thread, mine);
      }),
    );
    for (const thread of threads) {
      const history = [];
      for await (const t of workers[0]!.list(cfg(thread))) history.push(t);
      expect(history.map((t) => t.checkpoint)).toStrictEqual([...written.get(thread)!].reverse());
      for (const t of history) expect(t.metadata.thread).toBe(thread);
      expect(history[0]!.pendingWrites).toEqual([]);
      expect(history[1]!.pendingWrites).toEqual([["task-11", "messages", 11]]);
    }
  });
});
