/**
 * Corrupted Postgres checkpoint rows and dropped tables (defect 4 of issue 8): the cases of corrupt-cases.ts
 * applied with plain SQL to real rows, each read by a fresh saver. Before the fix a blob whose base was its
 * own checkpoint made the recursive query run until the server was stopped.
 */
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { CorruptCheckpointError } from "../../runtime/checkpoint/corrupt.ts";
import { CORRUPTIONS, type Seeded, type Sql, expectCorrupt, seed } from "./corrupt-cases.ts";
import { cfg } from "./conformance.ts";
import { postgresUrl } from "./pg-env.ts";

const url = postgresUrl();
const runTag = `graphc_corrupt_${process.pid}_${Date.now().toString(36)}`;
const admin = new pg.Pool({ connectionString: url, max: 2 });
const used: string[] = [];
afterAll(async () => {
  for (const s of used) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await admin.end();
});

const open = (schema: string) => new PostgresSaver(new pg.Pool({ connectionString: url, max: 2 }), { schema }, true);

/** A new schema holding a seeded thread, written by a saver that is closed again. */
async function seededSchema(): Promise<{ schema: string; seeded: Seeded }> {
  const schema = `${runTag}_${used.length + 1}`;
  used.push(schema);
  const saver = open(schema);
  try {
    return { schema, seeded: await seed(saver, `thread-${used.length}`) };
  } finally {
    await saver.end();
  }
}

/** SQL on the schema's tables, through the test's own connection (not a saver's). */
function sqlOn(schema: string): Sql {
  return async (text, ...params) => {
    let n = 0;
    const statement = text.replace(/\{(\w+)\}/g, (_, t: string) => `"${schema}".graphc_${t}`).replace(/\?/g, () => `$${++n}`);
    await admin.query(statement, params);
  };
}

/** Runs `read` on a fresh saver of `schema`, returning what it threw. */
async function failure(schema: string, read: (saver: PostgresSaver) => Promise<unknown>): Promise<CorruptCheckpointError> {
  const saver = open(schema);
  try {
    const err = await read(saver).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CorruptCheckpointError);
    return err as CorruptCheckpointError;
  } finally {
    await saver.end();
  }
}

describe("PostgresSaver on corrupted rows", () => {
  it.each(CORRUPTIONS.map((c) => [c.name, c] as const))("%s: CORRUPT_CHECKPOINT naming thread, checkpoint and channel", async (_, c) => {
    const { schema, seeded } = await seededSchema();
    await c.damage(sqlOn(schema), seeded);
    const saver = open(schema);
    try {
      await expectCorrupt(saver, seeded, c);
    } finally {
      await saver.end();
    }
  });
});

describe("PostgresSaver on dropped tables", () => {
  it("a table dropped while a saver is open: its reads fail with CORRUPT_CHECKPOINT naming the table", async () => {
    const { schema, seeded } = await seededSchema();
    const saver = open(schema);
    try {
      await saver.setup();
      await sqlOn(schema)("DROP TABLE {blobs}");
      const err = await saver.getTuple(cfg(seeded.thread)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CorruptCheckpointError);
      expect(err).toMatchObject({ code: "CORRUPT_CHECKPOINT", problem: `table graphc_blobs is missing from schema "${schema}": it was dropped after setup` });
    } finally {
      await saver.end();
    }
  });

  it("a table dropped after setup: setup of a new saver refuses the schema instead of recreating it empty", async () => {
    const { schema, seeded } = await seededSchema();
    await sqlOn(schema)("DROP TABLE {checkpoints}");
    const err = await failure(schema, (saver) => saver.getTuple(cfg(seeded.thread)));
    expect(err.problem).toMatch(new RegExp(`^table graphc_checkpoints missing from schema "${schema}", which graphc set up before .*dropped after setup$`));
    const tables = await admin.query("SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1", [schema]);
    expect(tables.rows.map((r: { table_name: string }) => r.table_name)).toEqual(["graphc_blobs", "graphc_meta", "graphc_writes"]);
  });

  it("every data table dropped, the marker left: refused too", async () => {
    const { schema } = await seededSchema();
    await sqlOn(schema)("DROP TABLE {checkpoints}, {blobs}, {writes}");
    const err = await failure(schema, (saver) => saver.setup());
    expect(err.problem).toMatch(/^tables graphc_checkpoints, graphc_blobs, graphc_writes missing from .*\(graphc_meta still there\)/);
  });

  it("a schema from before the marker table is set up as it is, and gets the marker", async () => {
    const { schema, seeded } = await seededSchema();
    await sqlOn(schema)("DROP TABLE {meta}");
    const saver = open(schema);
    try {
      expect((await saver.getTuple(cfg(seeded.thread)))!.checkpoint.id).toBe(seeded.ids[2]);
      const { rows } = await admin.query(`SELECT value FROM "${schema}".graphc_meta WHERE key = 'layout'`);
      expect(rows).toEqual([{ value: "1" }]);
    } finally {
      await saver.end();
    }
  });
});
