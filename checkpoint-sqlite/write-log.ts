/**
 * Pending writes in layout 2 (docs/checkpoints.md, "SQLite layout 2"): each `putWrites` call is one record.
 * Records append to a log in the checkpoint's own row while it is short (so a superstep's commit changes
 * one B-tree page for the writes and the next checkpoint, not two); a record that does not fit there, or
 * whose checkpoint is not stored yet (LangGraph allows it), is a `graphc_writes` row of its own.
 *
 *   record := "t" <task length> ":" <task id> { "w" <idx> "," <channel length> "," <value length> ":" <channel> <value> }
 *
 * Lengths are UTF-16 lengths; values are serde texts. LangGraph's rules for a task writing the same index
 * twice are applied when the log is read: an ordinary write (idx ≥ 0) keeps the first one, a special channel
 * (idx < 0) the last; rows come out ordered by task id (code point order) and idx, as the SQL layouts sort them.
 */
import { CorruptCheckpointError, type WriteRow, compareCodePoints } from "@graphc/runtime/saver";
import { RecordReader } from "./records.ts";

/** The record of one `putWrites` call (all of `rows` belong to one task). */
export function writeRecord(taskId: string, rows: readonly WriteRow[]): string {
  let out = "t" + taskId.length + ":" + taskId;
  for (const w of rows) out += "w" + w.idx + "," + w.channel.length + "," + w.value.length + ":" + w.channel + w.value;
  return out;
}

/** Where a log is stored, for the error of a damaged one. */
export interface LogSite {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
}

/** The writes of `logs` (oldest first), by LangGraph's rules; a log that does not parse is CORRUPT_CHECKPOINT. */
export function readLogs(site: LogSite, logs: readonly unknown[]): WriteRow[] {
  const tasks = new Map<string, Map<number, WriteRow>>();
  for (const log of logs) {
    if (log === undefined || log === "") continue;
    if (typeof log !== "string") throw damaged(site, `are ${log === null ? "null" : typeof log}, not text`);
    readLog(site, log, tasks);
  }
  const out: WriteRow[] = [];
  for (const task of [...tasks.keys()].sort(compareCodePoints)) {
    out.push(...[...tasks.get(task)!.values()].sort((a, b) => a.idx - b.idx));
  }
  return out;
}

function readLog(site: LogSite, log: string, tasks: Map<string, Map<number, WriteRow>>): void {
  const r = new RecordReader(log, (problem) => damaged(site, problem));
  let task: Map<number, WriteRow> | undefined;
  let task_id = "";
  while (!r.done) {
    const tag = r.tag();
    if (tag === "t") {
      task_id = r.take(r.int(":"));
      task = tasks.get(task_id);
      if (task === undefined) tasks.set(task_id, (task = new Map()));
    } else if (tag === "w" && task !== undefined) {
      const idx = r.int(",");
      const channelLength = r.int(",");
      const valueLength = r.int(":");
      const channel = r.take(channelLength);
      const value = r.take(valueLength);
      if (idx < 0 || !task.has(idx)) task.set(idx, { task_id, idx, channel, value });
    } else {
      throw r.fail("expected a record", r.at - 1);
    }
  }
}

function damaged(site: LogSite, problem: string): CorruptCheckpointError {
  const { thread_id, checkpoint_ns, checkpoint_id } = site;
  return new CorruptCheckpointError({ thread_id, checkpoint_ns, checkpoint_id }, `the pending writes ${problem}`);
}
