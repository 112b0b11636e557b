/** Node functions of c-edges.graph (reference §8 group C). `calls` counts node runs per node. */
import type { NodeContext } from "@graphc/runtime";

export const calls: Record<string, number> = {};
const count = (node: string) => {
  calls[node] = (calls[node] ?? 0) + 1;
};

export const sortedAdd = (x: string[], y: string[]): string[] => [...x, ...y].sort();
export const concat = (a: string, b: string): string => a + b;

export const rewriteQuery = (s: { query: string }, ctx: NodeContext) => {
  count(ctx.node);
  return { query: `query: ${s.query}` };
};
export const analyzerOne = (s: { query: string }) => ({ query: `analyzed: ${s.query}` });
export const retrieverOne = () => ({ docs: ["doc1", "doc2"] });
/** slower than its siblings, so `updates` (completion order) is deterministic */
export const retrieverTwo = async () => {
  await new Promise((r) => setTimeout(r, 30));
  return { docs: ["doc3", "doc4"] };
};
export const qa = (s: { docs?: string[] }) => ({ answer: (s.docs ?? []).join(",") });
export const decider = () => {};
/** loops until the query has been analyzed twice */
export const loopOrDone = (s: { query: string }) => (s.query.split("analyzed").length - 1 < 2 ? "loop" : "done");

export const keysOne = () => ({ keys: { value: 1 } });
export const keysTwo = () => ({ keys: { value: 2 } });
export const keysThree = () => ({ keys: { value: 3 } });
export const toTwo = () => "two" as const;

export const leftOrRight = (s: { value: string }) => (s.value.length > 10 ? "go-right" : "go-left");
export const left = (s: { value: string }) => ({ value: `${s.value}->left` });
export const right = (s: { value: string }) => ({ value: `${s.value}->right` });

export const addOne = () => ({ value: 1 });

export const stepOne = () => ({ foo: ["step1"], bar: "baz" });
export const stepTwo = () => ({ foo: ["step2"] });
export const appendName = (_s: object, ctx: NodeContext) => ({ foo: [ctx.node] });

export const slow = () => ({ my_key: " slow" });
export const fast = () => ({ my_key: " fast" });
