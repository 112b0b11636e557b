/**
 * The runtime's state snapshots as the LangGraph Server API spells them (the SDK's `ThreadState`,
 * `ThreadTask`, `Checkpoint`, `Interrupt`): snake_case keys, `null` rather than absent.
 */
import type { RunnableConfig, StateSnapshot, StateTask } from "@graphc/runtime";
import type { Json } from "./backend.ts";

export interface CheckpointJson {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string | null;
  checkpoint_map: null;
}

export function checkpointJson(config: RunnableConfig | undefined): CheckpointJson | null {
  const c = config?.configurable;
  if (!c?.thread_id) return null;
  return { thread_id: String(c.thread_id), checkpoint_ns: c.checkpoint_ns ?? "", checkpoint_id: c.checkpoint_id ?? null, checkpoint_map: null };
}

function isSnapshot(s: StateTask["state"]): s is StateSnapshot {
  return s !== undefined && "values" in s && "next" in s;
}

function taskJson(t: StateTask): Json {
  const state = t.state === undefined ? null : isSnapshot(t.state) ? stateJson(t.state) : null;
  const checkpoint = t.state === undefined ? null : isSnapshot(t.state) ? checkpointJson(t.state.config) : checkpointJson(t.state);
  return {
    id: t.id,
    name: t.name,
    error: t.error === undefined ? null : errorText(t.error),
    interrupts: t.interrupts.map((i) => ({ ...i })),
    checkpoint,
    state,
    ...(t.result !== undefined ? { result: t.result } : {}),
  };
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  if (typeof e === "object" && e !== null && "message" in e) return String((e as { message: unknown }).message);
  return String(e);
}

/** every interrupt pending in the snapshot, subgraph tasks' included (they surface at the root too) */
export function pendingInterrupts(s: StateSnapshot): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const t of s.tasks) if (t.interrupts.length > 0) out[t.id] = t.interrupts.map((i) => ({ ...i }));
  return out;
}

export function stateJson(s: StateSnapshot): Json {
  return {
    values: s.values,
    next: s.next,
    tasks: s.tasks.map(taskJson),
    checkpoint: checkpointJson(s.config),
    metadata: s.metadata ?? null,
    created_at: s.createdAt ?? null,
    parent_checkpoint: checkpointJson(s.parentConfig),
    interrupts: Object.values(pendingInterrupts(s)).flat(),
  };
}
