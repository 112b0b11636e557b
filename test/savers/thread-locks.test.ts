/**
 * The savers' `lockThread` in detail (issue 8, defect 3); the end-to-end tests with two processes are
 * test/durability/multitask.test.ts. SQLite: when a lock row's holder counts as alive (busy) or dead (the
 * row is taken over). Postgres: a lock connection that dies releases its locks and does not take the
 * process down.
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import pg from "pg";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { startedOf } from "../../checkpoint-sqlite/sqlite-lock.ts";
import { tempDir } from "../temp-dir.ts";
import { postgresUrl } from "./pg-env.ts";

const tmp = tempDir("thread-locks");
afterAll(() => tmp.remove());

describe("SqliteSaver.lockThread: a lock row's holder", () => {
  let files = 0;
  /** A saver on a fresh file whose lock table holds one row for thread "t" written by `holder`. */
  async function withRow(holder: { owner?: string; pid: number; started: string; host?: string }) {
    const saver = new SqliteSaver(join(tmp.dir, `locks-${++files}.db`));
    await (await saver.lockThread("setup", { wait: false }))!.release(); // makes the table
    saver.db
      .prepare(
        "INSERT INTO graphc_thread_locks (thread_id, owner, pid, started, host, since) VALUES ('t', ?, ?, ?, ?, '')",
      )
      .run(holder.owner ?? "another process", holder.pid, holder.started, holder.host ?? hostname());
    return saver;
  }
  const taken = async (saver: SqliteSaver) => {
    const lock = await saver.lockThread("t", { wait: false });
    await lock?.release();
    saver.close();
    return lock !== undefined;
  };
  const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;
  const parent = process.ppid; // alive for as long as this test runs

  it("is alive when its process exists with the start time it wrote (or an unknown one): busy", async () => {
    expect(await taken(await withRow({ pid: parent, started: startedOf(parent) }))).toBe(false);
    expect(await taken(await withRow({ pid: parent, started: "" }))).toBe(false);
  });

  it("is dead when its process is gone, or its pid now names a process started at another time: taken over", async () => {
    expect(await taken(await withRow({ pid: deadPid(), started: "" }))).toBe(true);
    if (startedOf(parent) !== "") expect(await taken(await withRow({ pid: parent, started: "1" }))).toBe(true);
    // this process's pid written by another (dead) process: this process's own rows carry its owner id
    expect(await taken(await withRow({ pid: process.pid, started: startedOf(process.pid) }))).toBe(true);
  });

  it("on another host cannot be checked: busy until it releases", async () => {
    expect(await taken(await withRow({ pid: deadPid(), started: "", host: `not-${hostname()}` }))).toBe(false);
  });

  it("another saver of this process on the same file is alive: busy until it releases", async () => {
    const file = join(tmp.dir, `locks-${++files}.db`);
    const one = new SqliteSaver(file);
    const two = new SqliteSaver(file);
    const lock = await one.lockThread("t", { wait: false });
    expect(lock).toBeDefined();
    expect(await two.lockThread("t", { wait: false })).toBeUndefined();
    const waiting = two.lockThread("t", { wait: true });
    await lock!.release();
    await (await waiting)!.release();
    one.close();
    two.close();
  });
});

describe("PostgresSaver.lockThread: the lock connection", () => {
  const url = postgresUrl();
  const schema = `graphc_locks_${process.pid}_${Date.now().toString(36)}`;

  it("dies: its locks are released, release() still resolves, the next lock takes a new connection", async () => {
    const one = PostgresSaver.fromConnString(url, { schema });
    const two = PostgresSaver.fromConnString(url, { schema });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const lock = await one.lockThread("t", { wait: false });
      expect(lock).toBeDefined();
      expect(await two.lockThread("t", { wait: false })).toBeUndefined();
      const { rows } = await admin.query<{ pid: number }>(
        `WITH k AS (SELECT hashtextextended($1, 0) AS h)
         SELECT l.pid FROM pg_locks l, k WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
           AND l.classid::bigint = ((k.h >> 32) & 4294967295) AND l.objid::bigint = (k.h & 4294967295)`,
        [`${schema.length}:${schema}:t`],
      );
      expect(rows).toHaveLength(1);
      await admin.query("SELECT pg_terminate_backend($1)", [rows[0]!.pid]);
      // the other saver gets the thread once Postgres has ended the session
      const other = await two.lockThread("t", { wait: true });
      expect(other).toBeDefined();
      await expect(lock!.release()).resolves.toBeUndefined();
      const next = await one.lockThread("u", { wait: false });
      expect(next).toBeDefined();
      await next!.release();
      await other!.release();
    } finally {
      await admin.end();
      await one.end();
      await two.end();
    }
  }, 20_000);
});
