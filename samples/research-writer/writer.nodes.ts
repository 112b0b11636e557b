/** The writer subgraph's node (seed 000 `do_write`). */
import type { WriterWriteRead, WriterWriteUpdate } from "./writer.graph.ts";
import type { NodeContext } from "@graphc/runtime";
import { scriptedModel, writePrompt } from "./model.ts";

export async function doWrite(w: WriterWriteRead, ctx: NodeContext): Promise<WriterWriteUpdate> {
  const prompt = writePrompt(w.notes);
  const out = await scriptedModel.complete([{ role: "user", content: prompt }], { signal: ctx.signal });
  return {
    article: out,
    messages: [
      { role: "user", content: prompt },
      { role: "assistant", content: out, name: scriptedModel.name },
    ],
  };
}
