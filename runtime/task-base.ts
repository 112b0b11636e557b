/** What the tasks of both loops share (a leaf module: superstep.ts reads `one` through its own interface). */
import type { CNode, CompiledNodes } from "./compiled.ts";
import type { TaskUpdate, Values } from "./spec.ts";

/**
 * The base of both loops' tasks (task.ts, lean/task.ts): the node's names and vars as its context shows them,
 * and its state updates, the first kept bare (`one`) while nothing asks for the list, so that a step's lone
 * update is applied without a list or a wrapper.
 */
export class TaskBase {
  /** the only update, while nothing read `updates` */
  one: Values | undefined = undefined;
  /** the list, once there is one; rarely set (a second update, a reader of `updates`): declared only */
  declare ups: TaskUpdate[] | undefined;

  /** set by the subclass (its own loop type) */
  declare readonly loop: { readonly c: CompiledNodes; readonly vars: Values };

  constructor(readonly cn: CNode) {}

  get graph(): string {
    return this.loop.c.spec.name;
  }
  get node(): string {
    return this.cn.name;
  }
  get name(): string {
    return this.cn.name;
  }
  get vars(): Values {
    return this.loop.vars;
  }

  /** the updates in the order the node produced them (made from `one` when something reads them) */
  get updates(): TaskUpdate[] | undefined {
    if (this.one !== undefined) {
      this.ups = [{ node: this.cn.name, values: this.one }];
      this.one = undefined;
    }
    return this.ups;
  }

  addUpdate(u: Values): void {
    if (this.one === undefined && this.ups === undefined) this.one = u;
    else this.updates!.push({ node: this.cn.name, values: u });
  }
}
