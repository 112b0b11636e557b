/**
 * `npx tsx bench/writes-fanout.ts`: a fan-out's pending writes — T tasks of one step each putting two writes
 * against the same checkpoint (a map-reduce of T Sends) — in µs per `putWrites`, for T = 10 … 4,000, on
 * MemorySaver and SqliteSaver (a temporary file). Flat = linear in T. Prints the figures and the number of
 * writes read back; asserts nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { MemorySaver } from "../runtime/index.ts";

const dir = mkdtempSync(join(tmpdir(), "graphc-fanout-"));
const savers = { MemorySaver: () => new MemorySaver(), SqliteSaver: () => new SqliteSaver(join(dir, `${Math.random()}.db`)) };
const checkpoint = { v: 4, id: "c1", ts: "2026-12-03T00:00:00.000Z", channel_values: {}, channel_versions: {}, versions_seen: {} };
for (const [name, make] of Object.entries(savers)) {
  const row: string[] = [];
  for (const tasks of [10, 100, 1000, 4000]) {
    const saver = make();
    const config = await saver.put({ configurable: { thread_id: "t", checkpoint_ns: "" } }, checkpoint, { source: "loop", step: 0, parents: {} }, {});
    const t0 = performance.now();
    for (let i = 0; i < tasks; i++) await saver.putWrites(config, [["results", [i]], ["branch:to:collect", null]], `task-${i}`);
    const us = ((performance.now() - t0) * 1000) / tasks;
    const read = (await saver.getTuple(config))?.pendingWrites?.length;
    row.push(`${tasks}: ${us.toFixed(1)} µs (${read} writes)`);
  }
  console.log(`${name.padEnd(12)} per putWrites  ${row.join("  ")}`);
}
rmSync(dir, { recursive: true, force: true });
