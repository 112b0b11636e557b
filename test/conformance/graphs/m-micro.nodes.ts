/** Node functions of m-micro.graph (reference §8.3). */
import { Command, Send, type NodeContext } from "@graphc/runtime";
import { untypedSend } from "./untyped-send.ts";

export const named = (_s: unknown, ctx: NodeContext) => ({ items: [ctx.node] });
/** finishes last, yet its write is applied in name order */
export const slowNamed = async (_s: unknown, ctx: NodeContext) => {
  await new Promise((r) => setTimeout(r, 20));
  return { items: [ctx.node] };
};
export const sendW = () => [untypedSend("w", 1), untypedSend("w", 0)];
export const w = (arg: unknown) => ({ items: [`w:${String(arg)}`] });

export const chainStep = () => ({ n: 1 });

/** what an untyped router could return; the cast stands for code TypeScript does not check */
export const unknownName = () => "zzz" as never;
export const writeV = () => ({ v: "a" });
export const writeX = () => ({ x: "a" });
export const writeY = () => ({ y: "b" });
export const fresh: unknown[] = [];
export const seeFresh = (s: object) => {
  fresh.push({ ...s });
  return "__end__" as const;
};

export const parentWrite = () => ({ list: ["p1"] });
export const childWrite = () => ({ list: ["c1"] });

export const writePriv = () => ({ priv: "P" });
export const readPriv = (s: { text: string; priv: string }) => ({ text: `${s.text}+${s.priv}` });
export const nothing = () => null as never;
export const empty = () => ({});

export const emitCustom = (s: { text: string }, ctx: NodeContext) => {
  ctx.writer({ from: ctx.node, text: s.text });
  return { text: `${s.text}!` };
};
export const shout = (s: { text: string }) => ({ text: s.text.toUpperCase() });

export const s1 = () => ({ list: ["s1"] });
export const s2ToParent = () => new Command({ graph: Command.PARENT, update: { list: ["cmd"] }, goto: "p3" }) as never;
export const p3 = () => ({ list: ["p3"] });
