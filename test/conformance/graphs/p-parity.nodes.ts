/** Node functions of p-parity.graph (issue 13 parity cases). */
import type { NodeContext } from "@graphc/runtime";

/** writes nothing: `error` stays absent */
export const fetchMaybe = () => ({});
export const note = (_s: unknown, ctx: NodeContext) => ({ took: ctx.node });
export const noop = () => undefined;
export const fail = (): { took: string } => {
  throw new Error("kaput");
};
export const recover = () => ({ took: "handler" });
