/** Node functions of f-durable.graph (reference §8 group F). `calls` counts runs per node. */
import { Command, END, Send, type NodeContext } from "@graphc/runtime";
import { untypedSend } from "./untyped-send.ts";

export const calls: Record<string, number> = {};
const count = (ctx: NodeContext) => {
  calls[ctx.node] = (calls[ctx.node] ?? 0) + 1;
};
/** whether `two` of PendingWrites has been fixed (set by the test) */
export const fixes = { two: false };

export const concat = (a: string, b: string): string => a + b;

export const askJustBecause = (_s: object, ctx: NodeContext) => {
  count(ctx);
  return { my_key: ctx.interrupt<string>("Just because...") };
};
export const toolOne = () => ({ my_key: " one" });
export const toolsAndSend = (s: object) => ["tool_two" as const, untypedSend("tool_one", s)];

export const slowAgain = async (_s: object, ctx: NodeContext) => {
  count(ctx);
  await new Promise((r) => setTimeout(r, 20));
  return { hello: "again" };
};
export const bad = (_s: object, ctx: NodeContext) => {
  count(ctx);
  ctx.interrupt("I am bad");
};

export const askTwice = (_s: object, ctx: NodeContext) => {
  count(ctx);
  const a = ctx.interrupt<string>("first");
  const b = ctx.interrupt<string>("second");
  return { myKey: a + b };
};

export const askPrompt = (s: { prompt: string }, ctx: NodeContext) => ({
  humanInputs: [`response: ${ctx.interrupt<string>(s.prompt)}`],
});
export const fivePrompts = (s: { prompts: string[] }) => s.prompts.map((prompt) => new Send("childGraph", { prompt }));

export const addTwo = (_s: object, ctx: NodeContext) => {
  count(ctx);
  return { value: 2 };
};
export const failsUntilFixed = (_s: object, ctx: NodeContext) => {
  count(ctx);
  if (!fixes.two) throw new Error("I am bad");
  return { value: 3 };
};

export const node1 = (s: { attempt?: number }) => {
  if (s.attempt === undefined) throw new Error("Simulated failure");
  return { steps: ["node1"] };
};
export const node2 = () => ({ steps: ["node2"] });

export const nodeA = (_s: object, ctx: NodeContext) => {
  count(ctx);
  return { value: ["a"] };
};
export const nodeB = (_s: object, ctx: NodeContext) => {
  count(ctx);
  return { value: ["b"] };
};

export const toEnd = () => new Command({ goto: END });
export const askResume = (_s: object, ctx: NodeContext) => ({ messages: [`interrupt: ${ctx.interrupt<string>("?")}`] });

export const pipe1 = (s: { foo: string }) => ({ foo: `${s.foo}|node-1` });
export const pipe2 = (s: { foo: string }) => ({ foo: `${s.foo}|node-2` });
