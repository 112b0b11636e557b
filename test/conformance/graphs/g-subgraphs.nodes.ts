/** Node functions of g-subgraphs.graph (reference §8 group G). */
export const up = (s: { myKey: string }) => ({ myKey: `${s.myKey} there`, myOtherKey: s.myKey });
export const side = (s: { myKey: string }) => ({ myKey: `${s.myKey} and back again` });
