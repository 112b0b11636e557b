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
  let at = 0;
  /** the integer from `at` up to `end` (a separator), moving past the separator */
  const int = (end: string): number => {
    const stop = log.indexOf(end, at);
    const text = stop < 0 ? "" : log.slice(at, stop);
    if (!/^-?\d{1,15}$/.test(text)) throw damaged(site, `are damaged at character ${at} (expected a number)`);
    at = stop + 1;
    return Number(text);
  };
  const take = (length: number): string => {
    if (length < 0 || at + length > log.length) throw damaged(site, `are damaged at character ${at} (a length past the end)`);
    return log.slice(at, (at += length));
  };
  let task: Map<number, WriteRow> | undefined;
  let task_id = "";
  while (at < log.length) {
    const tag = log[at++];
    if (tag === "t") {
      task_id = take(int(":"));
      task = tasks.get(task_id);
      if (task === undefined) tasks.set(task_id, (task = new Map()));
    } else if (tag === "w" && task !== undefined) {
      const idx = int(",");
      const channelLength = int(",");
      const valueLength = int(":");
      const channel = take(channelLength);
      const value = take(valueLength);
      if (idx < 0 || !task.has(idx)) task.set(idx, { task_id, idx, channel, value });
    } else {
      throw damaged(site, `are damaged at character ${at - 1} (expected a record)`);
    }
  }
}

function damaged(site: LogSite, problem: string): CorruptCheckpointError {
  const { thread_id, checkpoint_ns, checkpoint_id } = site;
  return new CorruptCheckpointError({ thread_id, checkpoint_ns, checkpoint_id }, `the pending writes ${problem}`);
}
