/**
 * A Command (or a list) that a static graph's node returns after all — past the proof that its function
 * returns none: an untyped function, a cast, a hand-written spec. The static loop (loop.ts) hands the return
 * to writes.ts `takeReturn`, which the full loop bundled by "@graphc/runtime" reads returns with anyway, and
 * the step it ends to `commandStep`; index.ts installs both (features.ts `leanWrites`), so a bundle of
 * "@graphc/runtime/core" carries neither, and the default bundles no lean loop for it.
 */
import { features } from "../features.ts";
import { LeanTask, PUSH } from "../lean/task.ts";
import { takeReturn } from "../writes.ts";
import type { StaticLoop } from "./loop.ts";

/**
 * The next step, as the lean loop's `prepare` makes it: the triggered nodes (static targets and goto) in name
 * order as PULL tasks, then every task's Sends in order as PUSH tasks.
 */
function commandStep(this: StaticLoop, tasks: LeanTask[]): LeanTask[] {
  const out = this.pulls([...new Set(tasks.flatMap((t) => (t.trig ?? []).concat(t.cn.targets)))]);
  tasks.flatMap((t) => t.sends ?? []).forEach((s, i) => out.push(new LeanTask(this, this.c.byName.get(s.node)!, PUSH, i, s.arg)));
  return out;
}

export function installStaticCommands(): void {
  features.leanWrites = { settle: takeReturn, prepare: commandStep };
}
