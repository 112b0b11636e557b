/** Node functions of e-command.graph (reference §8 group E). */
import { Command, END, type NodeContext } from "@graphc/runtime";

export const calls: string[] = [];
export const pipeJoin = (a: string, b: string): string => `${a}|${b}`;

/** where nodeA's subgraph sends the parent next (set by the test) */
export const route = { to: "nodeB" };
export const aThenParent = () => {
  calls.push("Called A");
  return new Command({ update: { foo: "a" }, goto: route.to, graph: Command.PARENT }) as never;
};
export const called = (_s: unknown, ctx: NodeContext) => {
  calls.push(`Called ${ctx.node.slice(-1)}`);
  return { foo: ctx.node.slice(-1).toLowerCase() };
};

export const gotoEnd = () => new Command({ update: { count: 1 }, goto: END });

export const foo = () => ({ uniqueStrings: ["foo"] });
export const bar = () => ({ uniqueStrings: ["bar"] });
export const baz = () => ({ uniqueStrings: ["baz"] });
/** `graph: "PARENT"` is a plain string here, not the Command.PARENT constant */
export const literalParent = () => new Command({ graph: "PARENT", goto: "node_3", update: { uniqueStrings: ["bar"] } }) as never;
