/**
 * Corrupted SQLite checkpoint files (defect 4 of issue 8): rows damaged with better-sqlite3 directly, dropped
 * tables, a zero-length file and a text file. Every read returns promptly with a CORRUPT_CHECKPOINT naming
 * what was damaged; before the fix a self-referencing blob made the recursive query run for ever.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { CorruptCheckpointError } from "../../runtime/checkpoint/corrupt.ts";
import { CorruptCheckpointError as PublicCorruptCheckpointError, compileGraph, type Values } from "@graphc/runtime";
import { CORRUPTIONS, type Corruption, type Seeded, type Sql, expectCorrupt, seed } from "./corrupt-cases.ts";
import { cfg } from "./conformance.ts";
import { allBlobs, blobsToRows, blobsToTable } from "./sqlite-blob-rows.ts";
import { concat, graph, nodeFactory } from "../runtime/helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "graphc-corrupt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A file holding a seeded thread, written and closed by one saver. */
async function seededFile(): Promise<{ path: string; seeded: Seeded }> {
  const path = join(dir, `c-${++files}.db`);
  const saver = new SqliteSaver(path);
  const seeded = await seed(saver, `thread-${files}`);
  saver.close();
  return { path, seeded };
}

/**
 * Where the seeded blobs are when a case's SQL runs: as the saver wrote them (records in their checkpoints'
 * rows), or all in graphc_blobs (where long blobs go); "row": moved to graphc_blobs for the SQL to damage
 * them, then put back as records in their rows (sqlite-blob-rows.ts).
 */
type Place = "as written" | "row" | "table";

/** Runs SQL on the file with a connection of its own (not the saver's). */
async function damage(path: string, run: (sql: Sql) => Promise<void>, place: Place = "as written"): Promise<void> {
  const db = new Database(path);
  const tables = { checkpoints: "graphc_checkpoints", blobs: "graphc_blobs", writes: "graphc_writes" };
  const sql: Sql = async (text, ...params) => {
    db.prepare(text.replace(/\{(\w+)\}/g, (_, t: keyof typeof tables) => tables[t])).run(...params);
  };
  try {
    if (place !== "as written") blobsToTable(db);
    await run(sql);
    if (place === "row") {
      blobsToRows(db);
      // every blob of a stored checkpoint is back in its row (only the fake chain's rows have none)
      const inTable = db.prepare("SELECT COUNT(*) AS n FROM graphc_blobs JOIN graphc_checkpoints USING (thread_id, checkpoint_ns, checkpoint_id)");
      expect(inTable.get()).toEqual({ n: 0 });
    }
  } finally {
    db.close();
  }
}

/** Paths this process holds open (Linux). */
function openFiles(): string[] {
  return readdirSync("/proc/self/fd").flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

async function openError(open: () => unknown): Promise<CorruptCheckpointError> {
  let saver: unknown;
  try {
    saver = open();
  } catch (e) {
    expect(e).toBeInstanceOf(CorruptCheckpointError);
    return e as CorruptCheckpointError;
  }
  (saver as SqliteSaver).close();
  throw new Error("the saver opened the file without an error");
}

/**
 * The shared cases, with pending writes as SQLite's layout 2 keeps them: a log of records in the checkpoint's
 * row (checkpoint-sqlite/write-log.ts), not a row per write; and damage only that layout can have.
 */
const SQLITE_CORRUPTIONS: Corruption[] = [
  ...CORRUPTIONS.map((c) =>
    c.name === "a non-JSON pending write"
      ? { ...c, damage: (sql: Sql, s: Seeded) => sql("UPDATE {checkpoints} SET writes = ? WHERE checkpoint_id = ?", "t6:task-3w0,8,5:messages{oops", s.ids[2]) }
      : c,
  ),
  {
    name: "a pending-write log cut short",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET writes = substr(writes, 1, length(writes) - 3) WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: undefined,
    problem: /^the pending writes are damaged at character \d+ \(a length past the end\)$/,
  },
  {
    name: "a pending-write log that is not records",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET writes = 'x' || writes WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: undefined,
    problem: /^the pending writes are damaged at character 0 \(expected a record\)$/,
  },
  {
    name: "a graphc_writes record (writes that did not fit in the row) that is not one",
    damage: (sql, s) => sql("INSERT INTO {writes} (thread_id, checkpoint_ns, checkpoint_id, seq, after, writes) VALUES (?, '', ?, 1, 1, 'oops')", s.thread, s.ids[2]),
    checkpoint: 2,
    channel: undefined,
    problem: /^the pending writes are damaged at character 0 \(expected a record\)$/,
  },
  {
    name: "a pending-write log with a bad number",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET writes = 't6:task-3w0,8,five:messages1' WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: undefined,
    problem: /^the pending writes are damaged at character 14 \(expected a number\)$/,
  },
];

/** Damaged blob records in a row (checkpoint-sqlite/row-blobs.ts): the error names the row holding them. */
const RECORD_CORRUPTIONS: Corruption[] = [
  {
    name: "blob records cut short",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET blobs = substr(blobs, 1, length(blobs) - 3) WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: "messages",
    problem: /^the blobs stored in the row of checkpoint "[^"]+" are damaged at character \d+ \(a length past the end\)$/,
  },
  {
    name: "blob records cut short in an ancestor's row (the row holding them is named)",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET blobs = substr(blobs, 1, length(blobs) - 3) WHERE checkpoint_id = ?", s.ids[0]),
    checkpoint: 0,
    channel: "messages",
    problem: /^the blobs stored in the row of checkpoint "[^"]+" are damaged at character \d+ \(a length past the end\)$/,
  },
  {
    name: "blob records that are not records",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET blobs = 'x' || blobs WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: "messages",
    problem: /^the blobs stored in the row of checkpoint "[^"]+" are damaged at character 0 \(expected a record\)$/,
  },
  {
    name: "a blob record with a bad number",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET blobs = 'b8,1,x,0,0,-1,3:messages[1]' WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: "messages",
    problem: /^the blobs stored in the row of checkpoint "[^"]+" are damaged at character 5 \(expected a number\)$/,
  },
  {
    name: "blob records that are not text",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET blobs = x'6231' WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: "messages",
    problem: /^the blobs stored in the row of checkpoint "[^"]+" are object, not text$/,
  },
];

describe("SqliteSaver on corrupted rows", () => {
  it("the seeded blobs are records in their rows as written", async () => {
    const { path } = await seededFile();
    const db = new Database(path);
    try {
      expect(allBlobs(db).map((b) => [b.channel, b.kind, b.place])).toEqual([
        ["messages", 0, "row"],
        ["profile", 0, "row"],
        ["messages", 1, "row"],
        ["messages", 1, "row"],
      ]);
    } finally {
      db.close();
    }
  });

  const cases = [
    ...SQLITE_CORRUPTIONS.flatMap((c) => (["row", "table"] as const).map((place) => [`${c.name} (blobs in ${place === "row" ? "rows" : "graphc_blobs"})`, c, place] as const)),
    ...RECORD_CORRUPTIONS.map((c) => [c.name, c, "as written"] as const),
  ];
  it.each(cases)("%s: CORRUPT_CHECKPOINT naming thread, checkpoint and channel", async (_, c, place) => {
    const { path, seeded } = await seededFile();
    await damage(path, (sql) => c.damage(sql, seeded), place);
    const saver = new SqliteSaver(path);
    try {
      await expectCorrupt(saver, seeded, c);
    } finally {
      saver.close();
    }
  });

  it("the damage is reported by list() too, and an undamaged thread of the same file still reads", async () => {
    const { path, seeded } = await seededFile();
    const other = new SqliteSaver(path);
    await seed(other, "healthy");
    other.close();
    await damage(path, (sql) => CORRUPTIONS[0]!.damage(sql, seeded), "row");
    const saver = new SqliteSaver(path);
    try {
      const history = async () => {
        for await (const _ of saver.list(cfg(seeded.thread))) void _;
      };
      await expect(history()).rejects.toMatchObject({ code: "CORRUPT_CHECKPOINT", checkpointId: seeded.ids[2], channel: "messages" });
      expect((await saver.getTuple(cfg("healthy")))!.checkpoint.channel_values.messages).toHaveLength(3);
    } finally {
      saver.close();
    }
  });
});

describe("a graph on a corrupted SQLite file", () => {
  it("invoke and getState reject with the public CorruptCheckpointError instead of hanging", async () => {
    const n = nodeFactory("Chat", ["log"]);
    const spec = graph({
      name: "Chat",
      fields: { log: concat },
      // a long first entry: the next ones are stored as append blobs extending it
      nodes: [n("reply", (v: Values) => ({ log: [`reply ${(v.log as unknown[]).length} `.repeat((v.log as unknown[]).length === 0 ? 30 : 2)] }))],
      start: { edges: ["reply"] },
    });
    const path = join(dir, "graph.db");
    const writer = new SqliteSaver(path);
    const thread = { configurable: { thread_id: "chat" } };
    for (let k = 0; k < 3; k++) await compileGraph(spec, { checkpointer: writer }).invoke({ log: [] }, thread);
    const latest = (await writer.getTuple(thread))!.checkpoint.id;
    writer.close();
    const check = new Database(path);
    expect(allBlobs(check).filter((b) => b.checkpoint_id === latest).map((b) => [b.channel, b.kind, b.place])).toEqual([["log", 1, "row"]]);
    check.close();
    await damage(path, (sql) => sql("UPDATE {blobs} SET base = checkpoint_id WHERE checkpoint_id = ? AND channel = 'log'", latest), "row");
    const saver = new SqliteSaver(path);
    try {
      const g = compileGraph(spec, { checkpointer: saver });
      for (const call of [() => g.getState(thread), () => g.invoke({ log: [] }, thread)]) {
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(PublicCorruptCheckpointError);
        expect(err).toMatchObject({ code: "CORRUPT_CHECKPOINT", threadId: "chat", checkpointId: latest, channel: "log" });
      }
    } finally {
      saver.close();
    }
  });
});

describe("SqliteSaver on damaged files and tables", () => {
  it("a table dropped while the saver is open: reads fail with CORRUPT_CHECKPOINT naming the table", async () => {
    const { path, seeded } = await seededFile();
    const saver = new SqliteSaver(path);
    try {
      await damage(path, (sql) => sql("DROP TABLE graphc_writes"));
      const err = await saver.getTuple(cfg(seeded.thread)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CorruptCheckpointError);
      expect(err).toMatchObject({ code: "CORRUPT_CHECKPOINT", problem: `table graphc_writes is missing from ${path}: it was dropped after setup` });
    } finally {
      saver.close();
    }
  });

  it("a table dropped after setup: a new saver refuses the file instead of reading empty threads", async () => {
    const { path } = await seededFile();
    await damage(path, (sql) => sql("DROP TABLE graphc_blobs"));
    const err = await openError(() => new SqliteSaver(path));
    expect(err.code).toBe("CORRUPT_CHECKPOINT");
    expect(err.problem).toMatch(new RegExp(`^table graphc_blobs missing from ${path}, which graphc set up before .*dropped after setup$`));
  });

  it("every data table dropped, the marker left: refused too", async () => {
    const { path } = await seededFile();
    await damage(path, async (sql) => {
      for (const t of ["graphc_checkpoints", "graphc_blobs", "graphc_writes"]) await sql(`DROP TABLE ${t}`);
    });
    const err = await openError(() => new SqliteSaver(path));
    expect(err.problem).toMatch(/^tables graphc_checkpoints, graphc_blobs, graphc_writes missing from .*\(graphc_meta still there\)/);
  });

  it("a database from before the marker table opens, and gets the marker", async () => {
    const { path, seeded } = await seededFile();
    await damage(path, (sql) => sql("DROP TABLE graphc_meta"));
    const saver = new SqliteSaver(path);
    try {
      expect((await saver.getTuple(cfg(seeded.thread)))!.checkpoint.id).toBe(seeded.ids[2]);
      expect(saver.db.prepare("SELECT value FROM graphc_meta WHERE key = 'layout'").get()).toEqual({ value: "2" });
    } finally {
      saver.close();
    }
  });

  it("an existing zero-length file is refused, not taken for an empty database", async () => {
    const path = join(dir, "empty.db");
    writeFileSync(path, "");
    const err = await openError(() => new SqliteSaver(path));
    expect(err.problem).toBe(`${path} is an empty file (0 bytes), not a checkpoint database: truncated?`);
  });

  it("a text file is refused, naming the file", async () => {
    const path = join(dir, "notes.txt");
    writeFileSync(path, "these are my notes, not a database\n".repeat(200));
    const err = await openError(() => new SqliteSaver(path));
    expect(err.problem).toBe(`${path} is not a SQLite database (file is not a database)`);
    // the saver closed the file it opened
    expect(openFiles()).not.toContain(path);
    // an open Database on it is refused the same way
    const db = new Database(path);
    try {
      expect((await openError(() => new SqliteSaver(db))).problem).toBe(err.problem);
    } finally {
      db.close();
    }
  });
});
