import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import type { CheckpointTuple } from "../../runtime/checkpoint/types.ts";
import { cfg, checkpoint, meta, saverConformance } from "./conformance.ts";
import { message, runMessagesThread } from "./messages-thread.ts";
import { allBlobs } from "./sqlite-blob-rows.ts";

const writer = fileURLToPath(new URL("./fixtures/sqlite-writer.ts", import.meta.url));

/** Starts the writer child; resolves once it has stored its first checkpoint. */
function startWriter(file: string, thread: string, steps: number) {
  const child = spawn(process.execPath, ["--import", "tsx", writer, file, thread, String(steps)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
    child.on("exit", (code) => reject(new Error(`writer exited (${code}) before its first checkpoint`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, ready, exited };
}

const dir = mkdtempSync(join(tmpdir(), "graphc-sqlite-"));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

saverConformance(
  "SqliteSaver",
  async () => {
    const path = join(dir, `saver-${++files}.db`);
    const saver = new SqliteSaver(path);
    const others: SqliteSaver[] = [];
    return {
      saver,
      storedSize: async () => saver.storedChars(),
      reopen: async () => {
        const other = new SqliteSaver(path);
        others.push(other);
        return other;
      },
      close: async () => {
        for (const o of others) o.close();
        saver.close();
      },
    };
  },
  true,
);

describe("SqliteSaver specifics", () => {
  it("uses WAL on a file, and accepts an open Database that it leaves open", async () => {
    const path = join(dir, "given.db");
    const db = new Database(path);
    const saver = new SqliteSaver(db);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    await saver.put(cfg("t"), checkpoint({ x: 1 }), meta(-1), {});
    saver.close();
    expect(db.open).toBe(true);
    // a second saver on the same file sees the data (tables are created only when missing)
    const again = new SqliteSaver(path);
    expect((await again.getTuple(cfg("t")))?.checkpoint.channel_values).toEqual({ x: 1 });
    again.close();
    db.close();
  });

  it("fromConnString (LangGraph.js's name) opens the file itself, and close() closes it", async () => {
    const path = join(dir, "from-conn-string.db");
    const saver = SqliteSaver.fromConnString(path);
    expect(saver).toBeInstanceOf(SqliteSaver);
    await saver.put(cfg("t"), checkpoint({ x: 2 }), meta(-1), {});
    saver.close();
    expect(saver.db.open).toBe(false);
    const again = SqliteSaver.fromConnString(path);
    expect((await again.getTuple(cfg("t")))?.checkpoint.channel_values).toEqual({ x: 2 });
    again.close();
  });

  it("stores a long messages thread as deltas: payload a few times the final state", async () => {
    const saver = new SqliteSaver(":memory:");
    const last = await runMessagesThread(saver, "t", 400);
    const finalState = JSON.stringify(last.checkpoint.channel_values).length;
    expect(saver.storedChars()).toBeLessThan(6 * finalState);
    const blobs = allBlobs(saver.db);
    const full = blobs.filter((b) => b.kind === 0).length;
    const append = blobs.filter((b) => b.kind === 1).length;
    expect(full).toBeGreaterThan(0);
    expect(append).toBeGreaterThan(10 * full);
    // short blobs are kept in their checkpoint's row, long ones (the full snapshots, past ROW_BLOB_CHARS) in graphc_blobs
    expect(blobs.filter((b) => b.place === "row" && b.kind === 1).length).toBe(append);
    expect(blobs.some((b) => b.place === "table" && b.kind === 0)).toBe(true);
    saver.close();
  });

  it("two processes write one file at once; a process killed with SIGKILL leaves only whole checkpoints", async () => {
    const path = join(dir, "processes.db");
    const victim = startWriter(path, "proc-kill", 100_000);
    await victim.ready;
    // this process writes its own thread while the child keeps writing (both need the file's write lock)
    const mine = new SqliteSaver(path);
    const last = await runMessagesThread(mine, "proc-parent", 30);
    victim.child.kill("SIGKILL");
    await victim.exited;
    mine.close();

    const saver = new SqliteSaver(path);
    expect(last.metadata.step).toBe(29);
    expect((await saver.getTuple(cfg("proc-parent")))?.checkpoint.channel_values.messages).toEqual(
      Array.from({ length: 30 }, (_, i) => message(i)),
    );
    // every checkpoint the killed writer committed reads back whole, in order, with its parent present
    const history: CheckpointTuple[] = [];
    for await (const t of saver.list(cfg("proc-kill"))) history.push(t);
    expect(history.length).toBeGreaterThan(0);
    history.reverse().forEach((t, i) => {
      expect(t.metadata.step).toBe(i - 1);
      expect(t.checkpoint.channel_values.messages).toEqual(Array.from({ length: i }, (_, k) => message(k)));
      if (i > 0) expect(t.parentConfig?.configurable?.checkpoint_id).toBe(history[i - 1]!.checkpoint.id);
    });
    saver.close();
  });

  it("pending writes commit with the next checkpoint or at the next event-loop turn, and on process.exit", async () => {
    const path = join(dir, "deferred.db");
    const a = new SqliteSaver(path);
    const other = new SqliteSaver(path);
    const c1 = await a.put(cfg("d"), checkpoint({ x: 1 }), meta(-1), {});
    await a.putWrites(c1, [["x", 2]], "task-1");
    // visible to the writing connection at once, to others once committed
    expect((await a.getTuple(c1))?.pendingWrites).toEqual([["task-1", "x", 2]]);
    expect((await other.getTuple(c1))?.pendingWrites).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect((await other.getTuple(c1))?.pendingWrites).toEqual([["task-1", "x", 2]]);
    // writes then a checkpoint: one commit, both visible when put resolves
    await a.putWrites(c1, [["x", 3]], "task-2");
    const c2 = await a.put(c1, checkpoint({ x: 3 }), meta(0), {});
    expect((await other.getTuple(c1))?.pendingWrites).toHaveLength(2);
    expect((await other.getTuple(cfg("d")))?.config).toEqual(c2);
    // a second saver on the same file in this process does not wait on the first one's open transaction
    await a.putWrites(c2, [["x", 4]], "task-3");
    await other.put(c2, checkpoint({ x: 4 }), meta(1), {});
    expect((await other.getTuple(c2))?.pendingWrites).toEqual([["task-3", "x", 4]]);
    a.close();
    other.close();

    const exitPath = join(dir, "exit.db");
    execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./fixtures/sqlite-exit.ts", import.meta.url)), exitPath]);
    const reader = new SqliteSaver(exitPath);
    expect((await reader.getTuple(cfg("exit")))?.pendingWrites).toEqual([["task", "x", 2]]);
    reader.close();
  });
});
