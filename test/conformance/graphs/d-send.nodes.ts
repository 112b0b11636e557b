/** Node functions of d-send.graph (reference §8 group D). LangGraph's node names "1", "1.1", "3.1" are n1, n1_1, n3_1. */
import { Command, Send, type NodeContext } from "@graphc/runtime";
import { untypedSend } from "./untyped-send.ts";

export const toJokes = (s: { subjects: string[] }) => s.subjects.map((subject) => new Send("generate_joke", { subjects: [subject] }));
export const generateJoke = (s: { subjects: string[] }) => ({ jokes: [`Joke about ${s.subjects[0]}`] });

/** "n3_1" -> "3.1" */
const name = (node: string) => node.slice(1).replace("_", ".");
export const label = (_s: unknown, ctx: NodeContext) => ({ items: [name(ctx.node)] });


export const twoSends = (s: { items: string[] }) => [new Send("n2", s), new Send("n2", s)];
export const toThree = () => "n3" as const;

/** a Send target receives the packet's argument exactly as sent: a number here */
export const numbered = (arg: unknown, ctx: NodeContext) => ({ items: [`${name(ctx.node)}|${JSON.stringify(arg)}`] });
export const sendForFun = () => [untypedSend("n2", 1), untypedSend("n2", 2), "n3_1" as const];
export const sendForProfit = () => [untypedSend("n2", 3), untypedSend("n2", 4)];

/** C-33: the packets carry Commands, which the target reads as data and returns */
const describe = (arg: unknown): string =>
  arg instanceof Command ? `Command(goto=${arg.goto.map((g) => (g instanceof Send ? `Send(${g.node},${JSON.stringify(g.arg)})` : g)).join(",")})` : JSON.stringify(arg);
export const sendCommands = () => [
  untypedSend("n2", new Command({ goto: new Send("n2", 3) })),
  untypedSend("n2", new Command({ goto: new Send("n2", 4) })),
  "n3_1" as const,
];
export const commandNode = (arg: unknown, ctx: NodeContext) => {
  const update = { items: [`${name(ctx.node)}|${describe(arg)}`] };
  return arg instanceof Command ? new Command({ goto: arg.goto, update }) : update;
};

export const mapTasks = () =>
  new Command({ goto: [0, 1, 2].map((index) => new Send("task", { index })), update: { foo: "map" } });
export const task = (arg: unknown) => ({ tasks: [(arg as { index: number }).index] });
