import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { SqliteSaver } from "../../runtime/adapters/sqlite.ts";
import { cfg, checkpoint, meta, saverConformance } from "./conformance.ts";
import { runMessagesThread } from "./messages-thread.ts";

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

  it("stores a long messages thread as deltas: payload a few times the final state", async () => {
    const saver = new SqliteSaver(":memory:");
    const last = await runMessagesThread(saver, "t", 400);
    const finalState = JSON.stringify(last.checkpoint.channel_values).length;
    expect(saver.storedChars()).toBeLessThan(6 * finalState);
    const rows = saver.db.prepare("SELECT kind, COUNT(*) AS n FROM graphc_blobs GROUP BY kind ORDER BY kind").all();
    expect(rows).toEqual([
      { kind: 0, n: expect.any(Number) },
      { kind: 1, n: expect.any(Number) },
    ]);
    const [full, append] = rows as { n: number }[];
    expect(append!.n).toBeGreaterThan(10 * full!.n);
    saver.close();
  });
});
