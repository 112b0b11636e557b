/**
 * Reads a thread's whole checkpoint history straight from a saver (every namespace), for the durability
 * checks: a resumed run must leave exactly the history an uninterrupted run leaves.
 */
import type { CheckpointSaver, CheckpointTuple } from "@graphc/runtime";

export interface Saved {
  ns: string;
  id: string;
  parentId: string | undefined;
  source: string;
  step: number;
  /** checkpoint ids of the enclosing graphs, by namespace ("" = root) */
  parents: Record<string, string>;
  values: Record<string, unknown>;
  pendingWrites: number;
}

/** Every checkpoint of the thread, newest first within each namespace, grouped by namespace. */
export async function threadHistory(saver: CheckpointSaver, threadId: string): Promise<Map<string, Saved[]>> {
  const byNs = new Map<string, Saved[]>();
  for await (const t of saver.list({ configurable: { thread_id: threadId } })) {
    const saved = toSaved(t);
    const list = byNs.get(saved.ns) ?? [];
    list.push(saved);
    byNs.set(saved.ns, list);
  }
  for (const list of byNs.values()) list.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return byNs;
}

function toSaved(t: CheckpointTuple): Saved {
  const values: Record<string, unknown> = {};
  // data fields only: the loop's own channels (branch:to:*, join:*, __*) depend on task ids
  for (const [k, v] of Object.entries(t.checkpoint.channel_values)) if (!k.includes(":") && !k.startsWith("__")) values[k] = v;
  return {
    ns: t.config.configurable?.checkpoint_ns ?? "",
    id: t.checkpoint.id,
    parentId: t.parentConfig?.configurable?.checkpoint_id,
    source: t.metadata.source,
    step: t.metadata.step,
    parents: t.metadata.parents,
    values,
    pendingWrites: t.pendingWrites.length,
  };
}

/**
 * Checks one namespace's history is a single unbroken chain: newest first, each checkpoint's parent is the
 * next one, and steps go down by exactly one to the input checkpoint (-1). Returns the steps, oldest first.
 */
export function assertChain(list: readonly Saved[], where: string): number[] {
  const problems: string[] = [];
  list.forEach((c, i) => {
    const older = list[i + 1];
    if (older === undefined) {
      if (c.parentId !== undefined) problems.push(`oldest checkpoint ${c.id} has a parent ${c.parentId}`);
      if (c.step !== -1 || c.source !== "input") problems.push(`oldest checkpoint is ${c.source} ${c.step}, not input -1`);
    } else {
      if (c.parentId !== older.id) problems.push(`checkpoint ${c.id} (step ${c.step}) has parent ${c.parentId}, not ${older.id}`);
      if (c.step !== older.step + 1) problems.push(`step ${c.step} follows step ${older.step}`);
      if (c.source !== "loop") problems.push(`checkpoint at step ${c.step} has source ${c.source}`);
    }
  });
  if (problems.length > 0) throw new Error(`${where}: history is not one consecutive chain:\n${problems.slice(0, 10).join("\n")}`);
  return list.map((c) => c.step).reverse();
}
