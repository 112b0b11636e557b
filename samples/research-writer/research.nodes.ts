/** The research subgraph's node (seed 000 `do_search`). */
import type { ResearchSearchRead, ResearchSearchUpdate } from "./research.graph.ts";
import type { NodeContext } from "@graphc/runtime";
import { researchPrompt, scriptedModel } from "./model.ts";

export async function doSearch(r: ResearchSearchRead, ctx: NodeContext): Promise<ResearchSearchUpdate> {
  const prompt = researchPrompt(r.topic);
  const out = await scriptedModel.complete([{ role: "user", content: prompt }], { signal: ctx.signal });
  return {
    notes: [out],
    // private to the subgraph: the parent has no `messages` field, so these never leave it
    messages: [
      { role: "user", content: prompt },
      { role: "assistant", content: out, name: scriptedModel.name },
    ],
  };
}
