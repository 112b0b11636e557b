/** What the tasks of both loops share (a leaf module: superstep.ts reads `one` through its own interface). */
import type { CNode, CompiledNodes } from "./compiled.ts";
import type { TaskUpdate, Values } from "./spec.ts";

/**
 * The base of both loops' tasks (task.ts, lean/task.ts): the node's names and vars as its context shows them,
 * and its state updates, the first kept bare (`one`) while nothing asks for the list, so that a step's lone
 * update is applied without a list or a wrapper. Methods only: each task class declares and fills its own
 * fields in its own constructor (a base with fields costs every task a second initialiser).
 */
export abstract class TaskBase {
  // not a default constructor: V8 skips a default one in `super()` through a builtin that makes the task out
  // of line (FindNonDefaultConstructorOrConstruct, FastNewObject); this one is inlined (W5 −5% instructions)
  constructor() {}
  /** the only update, while nothing read `updates` */
  abstract one: Values | undefined;
  /** the list, once there is one (a second update, or a reader of `updates`) */
  abstract ups: TaskUpdate[] | undefined;
  abstract readonly cn: CNode;
  abstract readonly loop: { readonly c: CompiledNodes; readonly vars: Values };

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
