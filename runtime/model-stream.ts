/**
 * Relays a chat model's token stream into the `messages` stream mode (LangGraph's StreamMessagesHandler does
 * this through callbacks; graphc has none, so a node hands the stream over explicitly):
 *
 *   const reply = await relayMessageChunks(ctx, model.stream(state.messages));
 *   return { messages: [reply] };
 *
 * Each chunk is emitted as it arrives, as `[chunk, metadata]` with LangGraph's metadata; the result is the
 * whole message: chunks with a `concat` method (LangChain's AIMessageChunk) are concatenated with it,
 * strings are joined. Works with any async iterable, so it needs no dependency on @langchain/core.
 */
import type { NodeContext } from "./spec.ts";

interface Concatenable<C> {
  concat(other: C): C;
}

const canConcat = <C>(c: C): c is C & Concatenable<C> =>
  typeof c === "object" && c !== null && typeof (c as { concat?: unknown }).concat === "function";

export async function relayMessageChunks<C>(
  ctx: Pick<NodeContext, "messages" | "node" | "graph">,
  chunks: AsyncIterable<C> | PromiseLike<AsyncIterable<C>>,
): Promise<C> {
  let whole: C | undefined;
  let seen = false;
  // LangChain's `model.stream()` is a promise of a stream
  for await (const chunk of await chunks) {
    ctx.messages(chunk);
    if (!seen) whole = chunk;
    else if (typeof whole === "string" && typeof chunk === "string") whole = (whole + chunk) as C;
    else if (canConcat(whole)) whole = whole.concat(chunk);
    else whole = chunk;
    seen = true;
  }
  if (!seen) throw new Error(`node "${ctx.node}" of graph "${ctx.graph}": the model stream ended without a chunk`);
  return whole as C;
}
