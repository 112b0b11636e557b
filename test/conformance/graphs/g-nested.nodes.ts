/** Node functions of g-nested.graph (reference §8 group G with a checkpointer). `runs` records node runs. */
import { Command, Send, type Message, type NodeContext } from "@graphc/runtime";

export const runs: string[] = [];
const ran = (ctx: NodeContext) => runs.push(ctx.node);

export const inner1 = (s: { myKey: string }, ctx: NodeContext) => {
  ran(ctx);
  return { myKey: `${s.myKey} here`, myOtherKey: s.myKey };
};
export const inner2 = (s: { myKey: string }, ctx: NodeContext) => {
  ran(ctx);
  return { myKey: `${s.myKey} and ${ctx.interrupt<string>("continue?")}` };
};
export const outer1 = (s: { myKey: string }, ctx: NodeContext) => {
  ran(ctx);
  return { myKey: `hi ${s.myKey}` };
};
export const outer2 = (s: { myKey: string }, ctx: NodeContext) => {
  ran(ctx);
  return { myKey: `${s.myKey} and back again` };
};

export const p1 = outer1;
export const c1 = (s: { myKey: string }, ctx: NodeContext) => {
  ran(ctx);
  return { myKey: s.myKey };
};
export const g1 = (s: { myKey: string }, ctx: NodeContext) => {
  ran(ctx);
  return { myKey: `${s.myKey} here` };
};
export const g2 = (s: { myKey: string }, ctx: NodeContext) => {
  ran(ctx);
  return { myKey: `${s.myKey} and ${ctx.interrupt<string>("ok?")}` };
};
export const p3 = outer2;

export const editSubject = (s: { subject: string }) => ({ subject: `${s.subject} - hohoho` });
export const generateJoke = (s: { subject: string }) => ({ jokes: [`Joke about ${s.subject}`] });
export const jokeSends = (s: { subjects: string[] }) => s.subjects.map((subject) => new Send("gen", { subject }));

const ai = (id: string, content: string): Message => ({ id, role: "ai", content });
export const askAndSay = (_s: object, ctx: NodeContext) => ({ messages: [ai("m1", ctx.interrupt<string>("say what?"))] });

/** tools return Commands to the parent graph; the cast stands for a node without declared goto */
export const setUserName = () => new Command({ graph: Command.PARENT, update: { user_name: "Meow" } }) as never;
export const bobCommand = () =>
  [new Command({ graph: Command.PARENT, update: { user_name: "Meow" }, goto: "bob_node" })] as never;
export const bob = () => ({ messages: [ai("bob", "bob")] });
export const grandkid = () =>
  new Command({ graph: Command.PARENT, update: { messages: [ai("gk", "grandkid")], user_name: "jeffrey" }, goto: "c2" }) as never;
export const robert = () => ({ messages: [ai("rb", "robert")] });

// C-56 (LangGraph's inner_1 / inner_2, `operator.add` on strings, and the "count of there" router)
export const concat = (a: string, b: string): string => a + b;
export const gotHere = (s: { myKey: string }) => ({ myKey: " got here", myOtherKey: s.myKey });
export const andThere = () => ({ myKey: " and there" });
export const thereTwice = (s: { myKey: string }) => (s.myKey.split("there").length - 1 < 2 ? "again" : "done");
