/**
 * SQLite layout 2 (checkpoint-sqlite/migrate.ts): a database written by layout 1 — built here with layout
 * 1's own statements, one `graphc_writes` row per pending write — opens, reads back the same checkpoints and
 * pending writes, keeps LangGraph's write rules across the old rows and new calls, and is converted once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { cfg } from "./conformance.ts";
import { allBlobs } from "./sqlite-blob-rows.ts";

const dir = mkdtempSync(join(tmpdir(), "graphc-layout-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// layout 1's tables and statements, as checkpoint-sqlite/index.ts had them before 2026-12-02
const LAYOUT_1 = `
CREATE TABLE graphc_checkpoints (
  thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, parent_id TEXT,
  header TEXT NOT NULL, metadata TEXT NOT NULL, PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
) WITHOUT ROWID;
CREATE TABLE graphc_blobs (
  thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL, channel TEXT NOT NULL,
  kind INTEGER NOT NULL, base TEXT, data TEXT NOT NULL, depth INTEGER NOT NULL, chain INTEGER NOT NULL, snap INTEGER NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, channel)
) WITHOUT ROWID;
CREATE TABLE graphc_writes (
  thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL, task_id TEXT NOT NULL,
  idx INTEGER NOT NULL, channel TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
) WITHOUT ROWID;
CREATE TABLE graphc_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT INTO graphc_meta (key, value) VALUES ('layout', '1');
`;

const FIRST = "1ef00000-0000-6000-8000-000000000001";
const SECOND = "1ef00000-0000-6000-8000-000000000002";
const EARLY = "1ef00000-0000-6000-8000-000000000003";

/**
 * A layout 1 file: a thread of two checkpoints (a list [first, "b"] stored as a full blob and an append
 * blob), writes of three tasks.
 */
function layout1File(name: string, first = "a"): string {
  const path = join(dir, name);
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.exec(LAYOUT_1);
  const row = db.prepare(
    "INSERT OR REPLACE INTO graphc_checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_id, header, metadata) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const blob = db.prepare(
    `INSERT OR REPLACE INTO graphc_blobs (thread_id, checkpoint_ns, checkpoint_id, channel, kind, base, data, depth, chain, snap)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const keep = db.prepare(
    "INSERT OR IGNORE INTO graphc_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, value) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const header = (ts: string, n: number) =>
    JSON.stringify({ v: 1, ts, cv: { count: n, log: n }, vs: {}, vals: { count: `=${n}`, log: "@" } });
  row.run("t", "", FIRST, null, header("2026-12-01T00:00:00.000Z", 1), JSON.stringify({ source: "input", step: -1, parents: {} }));
  const full = JSON.stringify([first]);
  blob.run("t", "", FIRST, "log", 0, null, full, 0, 0, full.length);
  row.run("t", "", SECOND, FIRST, header("2026-12-01T00:00:01.000Z", 2), JSON.stringify({ source: "loop", step: 0, parents: {} }));
  blob.run("t", "", SECOND, "log", 1, FIRST, '["b"]', 1, 5, full.length);
  keep.run("t", "", SECOND, "task-b", 0, "count", "3");
  keep.run("t", "", SECOND, "task-b", 1, "log", '["c"]');
  keep.run("t", "", SECOND, "task-a", -1, "__error__", '{"message":"boom","name":"Error"}');
  keep.run("t", "", SECOND, "task-a", 0, "out", "7");
  keep.run("t", "", FIRST, "task-0", 0, "count", "2");
  // writes of a checkpoint that was never stored (LangGraph allows it)
  keep.run("t", "", EARLY, "task-e", 0, "count", "9");
  db.close();
  return path;
}

describe("SqliteSaver layout 2", () => {
  it("converts a layout 1 database on open: checkpoints, blobs and pending writes read back as they were", async () => {
    const path = layout1File("old.db");
    const saver = new SqliteSaver(path);
    try {
      const latest = (await saver.getTuple(cfg("t")))!;
      expect(latest.checkpoint.id).toBe(SECOND);
      expect(latest.checkpoint.channel_values).toStrictEqual({ count: 2, log: ["a", "b"] });
      expect(latest.pendingWrites).toStrictEqual([
        ["task-a", "__error__", { message: "boom", name: "Error" }],
        ["task-a", "out", 7],
        ["task-b", "count", 3],
        ["task-b", "log", ["c"]],
      ]);
      expect((await saver.getTuple(cfg("t", { checkpoint_ns: "", checkpoint_id: FIRST })))!.pendingWrites).toStrictEqual([
        ["task-0", "count", 2],
      ]);
      const db = saver.db;
      expect(db.prepare("SELECT value FROM graphc_meta WHERE key = 'layout'").get()).toEqual({ value: "2" });
      const columns = (table: string) => (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
      expect(columns("graphc_writes")).toEqual(["thread_id", "checkpoint_ns", "checkpoint_id", "seq", "after", "writes"]);
      expect(columns("graphc_checkpoints")).toEqual(expect.arrayContaining(["writes", "blobs"]));

      // LangGraph's rules across the converted rows and new calls: an ordinary write is kept once, a special one replaced
      const second = cfg("t", { checkpoint_ns: "", checkpoint_id: SECOND });
      await saver.putWrites(second, [["out", "ignored"], ["more", 8]], "task-a");
      await saver.putWrites(second, [["__error__", { message: "again", name: "Error" }]], "task-a");
      expect((await saver.getTuple(second))!.pendingWrites).toStrictEqual([
        ["task-a", "__error__", { message: "again", name: "Error" }],
        ["task-a", "out", 7],
        ["task-a", "more", 8],
        ["task-b", "count", 3],
        ["task-b", "log", ["c"]],
      ]);

      // writes put before their checkpoint show once it is stored, before later writes of the same task
      const early = cfg("t", { checkpoint_ns: "", checkpoint_id: EARLY });
      const stored = await saver.put(second, { v: 4, id: EARLY, ts: "2026-12-01T00:00:02.000Z", channel_values: { count: 3 }, channel_versions: { count: 3 }, versions_seen: {} }, { source: "loop", step: 1, parents: {} }, { count: 3 });
      expect(stored.configurable?.checkpoint_id).toBe(EARLY);
      await saver.putWrites(early, [["count", 10], ["log", ["d"]]], "task-e");
      expect((await saver.getTuple(early))!.pendingWrites).toStrictEqual([
        ["task-e", "count", 9],
        ["task-e", "log", ["d"]],
      ]);
    } finally {
      saver.close();
    }
    // a second open finds layout 2 and changes nothing
    const again = new SqliteSaver(path);
    try {
      expect((await again.getTuple(cfg("t", { checkpoint_ns: "", checkpoint_id: SECOND })))!.pendingWrites).toHaveLength(5);
      // one record per task of layout 1, none added since (the later calls went to the checkpoints' rows)
      expect(again.db.prepare("SELECT COUNT(*) AS n FROM graphc_writes").get()).toEqual({ n: 4 });
    } finally {
      again.close();
    }
  });

  it("a layout 1 blob chain in graphc_blobs goes on in the rows: children append to it and read it back", async () => {
    const a = "a".repeat(60);
    const path = layout1File("chain.db", a);
    const saver = new SqliteSaver(path);
    try {
      let config = cfg("t", { checkpoint_ns: "", checkpoint_id: SECOND });
      const ids: string[] = [];
      for (let n = 3; n <= 5; n++) {
        const id = `1ef00000-0000-6000-8000-00000000001${n}`;
        const log = [a, "b", ...["c", "d", "e"].slice(0, n - 2)];
        config = await saver.put(config, { v: 4, id, ts: `2026-12-01T00:00:0${n}.000Z`, channel_values: { count: n, log }, channel_versions: { count: n, log: n }, versions_seen: {} }, { source: "loop", step: n - 2, parents: {} }, { count: n, log: n });
        ids.push(id);
      }
      saver.close();
      // a new saver (nothing cached) reads each value back from the old rows and the new records
      const reader = new SqliteSaver(path);
      try {
        expect((await reader.getTuple(config))!.checkpoint.channel_values).toStrictEqual({ count: 5, log: [a, "b", "c", "d", "e"] });
        const blobs = allBlobs(reader.db).map((b) => [b.checkpoint_id, b.kind, b.base, b.place]);
        expect(blobs).toEqual([
          [ids[0], 1, SECOND, "row"],
          [ids[1], 1, ids[0], "row"],
          [ids[2], 1, ids[1], "row"],
          [FIRST, 0, null, "table"],
          [SECOND, 1, FIRST, "table"],
        ]);
      } finally {
        reader.close();
      }
    } finally {
      saver.close();
    }
  });

  it("a file of the first layout 2 (pending writes in rows, no blobs column) gains the column and reads back", async () => {
    const path = layout1File("first-layout-2.db");
    new SqliteSaver(path).close();
    const db = new Database(path);
    db.exec("ALTER TABLE graphc_checkpoints DROP COLUMN blobs");
    db.close();
    const saver = new SqliteSaver(path);
    try {
      expect((await saver.getTuple(cfg("t")))!.checkpoint.channel_values).toStrictEqual({ count: 2, log: ["a", "b"] });
      expect(saver.db.prepare("SELECT COUNT(*) AS n FROM pragma_table_info('graphc_checkpoints') WHERE name = 'blobs'").get()).toEqual({ n: 1 });
    } finally {
      saver.close();
    }
  });

  it("blobs over the row's budget are graphc_blobs rows; a checkpoint put again moves a channel between the two and reads the new value", async () => {
    const path = join(dir, "placement.db");
    const saver = new SqliteSaver(path);
    const put = (values: Record<string, unknown>) =>
      saver.put(cfg("p"), { v: 4, id: FIRST, ts: "2026-12-01T00:00:00.000Z", channel_values: values, channel_versions: Object.fromEntries(Object.keys(values).map((k) => [k, 1])), versions_seen: {} }, { source: "input", step: -1, parents: {} }, {});
    const places = () => allBlobs(saver.db).map((b) => [b.channel, b.place, b.data.length]);
    // a fresh saver for each read: nothing comes from the writing saver's cache
    const read = async () => {
      const reader = new SqliteSaver(path);
      try {
        return (await reader.getTuple(cfg("p")))!.checkpoint.channel_values;
      } finally {
        reader.close();
      }
    };
    try {
      const long = "l".repeat(1_500);
      const short = "s".repeat(100);
      await put({ a: long, b: short });
      expect(places()).toEqual([
        ["b", "row", 102],
        ["a", "table", 1_502],
      ]);
      expect(await read()).toStrictEqual({ a: long, b: short });
      // put again with `a` short: in the row now, read from there although the old graphc_blobs row is still stored
      await put({ a: short + "2", b: short });
      expect(await read()).toStrictEqual({ a: short + "2", b: short });
      // and long again: out of the row, into graphc_blobs
      await put({ a: long + "3", b: short });
      expect(places()).toEqual([
        ["b", "row", 102],
        ["a", "table", 1_503],
      ]);
      expect(await read()).toStrictEqual({ a: long + "3", b: short });
    } finally {
      saver.close();
    }
  });

  it("keeps a step's pending writes in the checkpoint's row: no graphc_writes row unless a checkpoint is not stored yet", async () => {
    const saver = new SqliteSaver(join(dir, "new.db"));
    try {
      const c = await saver.put(cfg("t"), { v: 4, id: FIRST, ts: "2026-12-01T00:00:00.000Z", channel_values: {}, channel_versions: {}, versions_seen: {} }, { source: "input", step: -1, parents: {} }, {});
      await saver.putWrites(c, [["a", 1], ["b", "two"]], "task-1");
      saver.close();
      const db = new Database(join(dir, "new.db"));
      try {
        expect(db.prepare("SELECT COUNT(*) AS n FROM graphc_writes").get()).toEqual({ n: 0 });
        expect(db.prepare("SELECT writes FROM graphc_checkpoints").get()).toEqual({ writes: 't6:task-1w0,1,1:a1w1,1,5:b"two"' });
      } finally {
        db.close();
      }
    } finally {
      saver.close();
    }
  });

  it("a superstep of many tasks: records past the row's share are rows of their own, read back in order with the rules", async () => {
    const path = join(dir, "wide.db");
    const saver = new SqliteSaver(path);
    try {
      const c = await saver.put(cfg("t"), { v: 4, id: FIRST, ts: "2026-12-01T00:00:00.000Z", channel_values: {}, channel_versions: {}, versions_seen: {} }, { source: "input", step: -1, parents: {} }, {});
      const big = "x".repeat(300);
      for (let k = 0; k < 12; k++) await saver.putWrites(c, [["v", `${k}${big}`]], `task-${String(k).padStart(2, "0")}`);
      // task-00 again, now spilled after the row's log: its first ordinary write stays, its special write is the last
      await saver.putWrites(c, [["v", "ignored"], ["__error__", { message: "1", name: "Error" }]], "task-00");
      await saver.putWrites(c, [["__error__", { message: "2", name: "Error" }]], "task-00");
      const writes = (await saver.getTuple(c))!.pendingWrites!;
      expect(writes).toHaveLength(13);
      expect(writes[0]).toStrictEqual(["task-00", "__error__", { message: "2", name: "Error" }]);
      expect(writes[1]).toStrictEqual(["task-00", "v", `0${big}`]);
      expect(writes.slice(2).map(([task, , value]) => [task, (value as string).slice(0, 2)])).toStrictEqual(
        Array.from({ length: 11 }, (_, i) => [`task-${String(i + 1).padStart(2, "0")}`, `${i + 1}x`.slice(0, 2)]),
      );
      // the row holds a few hundred characters' worth of records, not all twelve tasks
      const rowLog = (saver.db.prepare("SELECT length(writes) AS n FROM graphc_checkpoints").get() as { n: number }).n;
      expect(rowLog).toBeGreaterThan(300);
      expect(rowLog).toBeLessThanOrEqual(1024);
      expect(saver.db.prepare("SELECT MIN(seq) AS lo, MAX(seq) AS hi, MIN(after) AS a FROM graphc_writes").get()).toEqual({ lo: 1, hi: 11, a: 1 });
    } finally {
      saver.close();
    }
  });
});
