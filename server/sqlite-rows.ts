/**
 * The SQLite backend's tables and the mapping between their rows and the Backend's `ThreadRow`/`RunRow`
 * (JSON columns decoded, NULL columns left out).
 */
import type { CancelAction, Json, RunRow, RunStatus, ThreadRow } from "./backend.ts";

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS server_threads (
  thread_id TEXT PRIMARY KEY,
  owner TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  metadata TEXT NOT NULL,
  status TEXT NOT NULL,
  state_values TEXT,
  interrupts TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS server_runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL UNIQUE,
  thread_id TEXT NOT NULL,
  assistant_id TEXT NOT NULL,
  owner TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  status TEXT NOT NULL,
  metadata TEXT NOT NULL,
  multitask_strategy TEXT NOT NULL,
  kwargs TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  checkpoint_before TEXT,
  cancel_action TEXT,
  result TEXT
);
CREATE INDEX IF NOT EXISTS server_runs_thread ON server_runs (thread_id, status);
`;

export interface ThreadRecord {
  thread_id: string;
  owner: string | null;
  created_at: string;
  updated_at: string;
  metadata: string;
  status: ThreadRow["status"];
  state_values: string | null;
  interrupts: string;
}

export interface RunRecord {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  owner: string | null;
  created_at: string;
  updated_at: string;
  status: RunStatus;
  metadata: string;
  multitask_strategy: RunRow["multitask_strategy"];
  kwargs: string;
  attempt: number;
  /** JSON: absent = never started, "null" = started on an empty thread */
  checkpoint_before: string | null;
  cancel_action: CancelAction | null;
  result: string | null;
}


export function threadOf(r: ThreadRecord): ThreadRow {
  return {
    thread_id: r.thread_id,
    owner: r.owner,
    created_at: r.created_at,
    updated_at: r.updated_at,
    metadata: JSON.parse(r.metadata) as Json,
    status: r.status,
    values: r.state_values === null ? null : (JSON.parse(r.state_values) as Json),
    interrupts: JSON.parse(r.interrupts) as ThreadRow["interrupts"],
  };
}

export function runOf(r: RunRecord): RunRow {
  const row: RunRow = {
    run_id: r.run_id,
    thread_id: r.thread_id,
    assistant_id: r.assistant_id,
    owner: r.owner,
    created_at: r.created_at,
    updated_at: r.updated_at,
    status: r.status,
    metadata: JSON.parse(r.metadata) as Json,
    multitask_strategy: r.multitask_strategy,
    kwargs: JSON.parse(r.kwargs) as RunRow["kwargs"],
    attempt: r.attempt,
  };
  if (r.checkpoint_before !== null) row.checkpoint_before = JSON.parse(r.checkpoint_before) as string | null;
  if (r.cancel_action !== null) row.cancel_action = r.cancel_action;
  if (r.result !== null) row.result = JSON.parse(r.result) as Json;
  return row;
}
