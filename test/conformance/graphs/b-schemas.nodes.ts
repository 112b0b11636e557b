/** Node functions of b-schemas.graph (reference §8 group B). `seen` records what each node received. */
import type { NodeContext } from "@graphc/runtime";

export const seen: { node: string; input: unknown; vars?: unknown }[] = [];

export const record = (s: object, ctx: NodeContext) => {
  seen.push({ node: ctx.node, input: { ...s } });
  return {};
};
export const nothing = () => {};
export const helloAgain = (s: object, ctx: NodeContext) => {
  seen.push({ node: ctx.node, input: { ...s } });
  return { hello: "again" };
};
/** returns a key the node does not declare; the cast stands for untyped JS */
export const helloAgainAndNow = () => ({ hello: "again", now: 123 }) as { hello: string };
export const fromSpecial = (s: { specialInputField: string }) => ({
  hello: s.specialInputField,
  bye: "world",
  messages: ["hello"],
});

export const writeSecret = () => ({ privateProp: "secret" });
export const readSecret = (s: { hello: string; privateProp: string }, ctx: NodeContext) => {
  seen.push({ node: ctx.node, input: { ...s } });
  return { hello: "again" };
};

export const answerQuestion = (s: { question: string }) => ({ answer: `Answer: ${s.question}`, internal: "x" });
export const agent = () => ({ answer: "agent", language: "en" });
export const tool = () => ({ answer: "tool" });

export const one = (s: { inputOne: string }) => ({ inputTwo: `${s.inputOne}>two` });
export const two = (s: { inputOne: string; inputTwo: string }) => ({ inputThree: `${s.inputTwo}>three` });
export const three = (s: { inputTwo: string; inputThree: string }) => ({ inputOne: `${s.inputThree}>one` });

export const processNode = (s: { messages: string[]; query?: string }, ctx: NodeContext) => {
  seen.push({ node: ctx.node, input: { ...s } });
  return { messages: ["processed"] };
};

export const helloFromVar = (_s: object, ctx: NodeContext<{ foo: string }>) => {
  seen.push({ node: ctx.node, input: {}, vars: { ...ctx.vars } });
  return { hello: "again" };
};
