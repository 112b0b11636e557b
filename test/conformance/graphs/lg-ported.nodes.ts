/** Node functions of lg-ported.graph: the LangGraph.js test scenarios it ports (cases/lg-ported.ts). */
import { Command, Send, type NodeContext } from "@graphc/runtime";

export const fooBar = () => ({ foo: "bar" });
export const bazQux = () => ({ baz: "qux" });

export const joinArrow = (a: string, b: string) => [a, b].join(" > ");
export const counters = { two: 0, called: [] as string[] };
export const oneSendsTwo = () => new Command({ goto: [new Send("two", {})], update: { name: "one" } }) as never;
export const countTwo = () => ({ name: `two ${++counters.two}` });
export const three = () => ({ name: "three" });

export const stepA = () => {
  counters.called.push("step_a");
  return { value: ["step_a_done"] };
};
const ask = (n: number) => (_s: unknown, ctx: NodeContext) => {
  counters.called.push(`ask_${n}`);
  return { value: [`ask_${n}:${ctx.interrupt<string>(`Question ${n}?`)}`] };
};
export const ask1 = ask(1);
export const ask2 = ask(2);

export const askApproval = (_s: unknown, ctx: NodeContext) => ({ value: [`approved:${ctx.interrupt<string>("approve?")}`] });
/** runs its declared child (`uses: Approval`) itself */
export const callChild = async (_s: unknown, ctx: NodeContext) => {
  const out = await ctx.run<{ value: string[] }, { value: string[] }>("Approval", { value: ["in"] });
  return { done: out?.value.join(",") ?? "" };
};

export const writeW = () => ({ x: ["w"] });
export const writeA = () => ({ x: ["a"] });
export const askQ = (_s: unknown, ctx: NodeContext) => ({ x: [ctx.interrupt<string>("q?")] });
export const askB = (_s: unknown, ctx: NodeContext) => ({ x: [ctx.interrupt<string>("b?")] });
