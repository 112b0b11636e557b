/**
 * The next step of tasks whose returns writes.ts read: the lean loop's step of several tasks, and the step in
 * which a static graph's node returned a Command (or a list) after all — past the proof that its function
 * returns none: an untyped function, a cast, a hand-written spec. The static loop (loop.ts) hands such a
 * return to writes.ts `takeReturn`, which the full loop reads returns with anyway, and the step it ends to
 * `commandStep`; ../install.ts `installCommandInput` installs both (features.ts `leanWrites`), as
 * "@graphc/runtime" and the savers call it, so a bundle of "@graphc/runtime/core" alone carries neither, and
 * the default bundles no lean loop for it.
 */
import type { CNode } from "../compiled.ts";
import { LeanTask, PUSH } from "../lean/task.ts";
import type { SmallLoop } from "../small-loop.ts";

/**
 * The next step of tasks whose returns writes.ts read (Commands, routers): the triggered nodes (static
 * targets, goto and router targets), each once, in name order as PULL tasks, then every task's Sends in order
 * as PUSH tasks. The lean loop's next step too, but a chain's (../lean/loop.ts `prepare`).
 */
export function commandStep(this: SmallLoop, tasks: LeanTask[]): LeanTask[] {
  // a list, not a Set, and no closure: a step triggers a few nodes (a router's single one does not come here,
  // lean/loop.ts), and a Set or flatMap per step made W4's lean loop ~2× slower
  const nodes: CNode[] = [];
  for (const t of tasks) for (const n of t.trig ? t.trig.concat(t.cn.targets) : t.cn.targets) if (!nodes.includes(n)) nodes.push(n);
  const out = this.pulls(nodes);
  let i = 0;
  for (const t of tasks) if (t.sends) for (const s of t.sends) out.push(new LeanTask(this, this.c.byName.get(s.node)!, PUSH, i++, s.arg));
  return out;
}
