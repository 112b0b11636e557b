/**
 * A Command (or a list) that a static graph's node returns after all — past the proof that its function
 * returns none: an untyped function, a cast, a hand-written spec. The static loop (loop.ts) hands the return
 * to writes.ts `takeReturn`, which the full loop bundled by "@graphc/runtime" reads returns with anyway, and
 * the step it ends to `commandStep`; index.ts installs both (features.ts `leanWrites`), so a bundle of
 * "@graphc/runtime/core" carries neither, and the default bundles no lean loop for it.
 */
import type { CNode } from "../compiled.ts";
import { features } from "../features.ts";
import { LeanTask, PUSH } from "../lean/task.ts";
import type { SmallLoop } from "../small-loop.ts";
import { takeReturn } from "../writes.ts";

/**
 * The next step of tasks whose returns writes.ts read (Commands, routers): the triggered nodes (static
 * targets, goto and router targets), each once, in name order as PULL tasks, then every task's Sends in order
 * as PUSH tasks. The lean loop's next step too, but a chain's (../lean/loop.ts `prepare`).
 */
export function commandStep(this: SmallLoop, tasks: LeanTask[]): LeanTask[] {
  // a list, not a Set, and plain loops: most such steps trigger one node or a few (a router's loop), and a
  // Set, flatMap or a closure per step made W4's lean loop ~2× slower
  const nodes: CNode[] = [];
  for (const t of tasks) {
    if (t.trig) addNew(nodes, t.trig);
    addNew(nodes, t.cn.targets);
  }
  const out = this.pulls(nodes);
  let i = 0;
  for (const t of tasks) if (t.sends) for (const s of t.sends) out.push(new LeanTask(this, this.c.byName.get(s.node)!, PUSH, i++, s.arg));
  return out;
}

function addNew(nodes: CNode[], add: readonly CNode[]): void {
  for (let i = 0; i < add.length; i++) if (!nodes.includes(add[i]!)) nodes.push(add[i]!);
}

export function installStaticCommands(): void {
  features.leanWrites = { settle: takeReturn, prepare: commandStep };
}
