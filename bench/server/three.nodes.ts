/** Node functions of three.graph (structural types: the generated code lives in the bench's temp folder). */
type Step = (s: { n: number }) => { n: number; log: string[] };

export const a: Step = (s) => ({ n: s.n + 1, log: ["a"] });
export const b: Step = (s) => ({ n: s.n * 2, log: ["b"] });
export const c: Step = (s) => ({ n: s.n - 3, log: ["c"] });
