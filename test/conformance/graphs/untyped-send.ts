/**
 * A `Send` whose arg is not what the target node reads (a bare value, the whole state): LangGraph's tests
 * send such packets, and a typed graph's `Send` must say so, or the TypeScript pass rejects the packet
 * (G3093, the generated `…Send` types).
 */
import { Send } from "@graphc/runtime";

export const untypedSend = <N extends string>(node: N, arg: unknown) => new Send(node, arg as never);
