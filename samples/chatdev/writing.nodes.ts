/**
 * The A and C agents of ChatDev's demo_sub_graph / demo_sub_graph_path (writer and reviser), shared by
 * both demos because their fields are the same, and the inline demo's editor B1.
 */
import type { NodeContext } from "@graphc/runtime";
import type {
  SubGraphPathWriterRead,
  SubGraphPathWriterUpdate,
  SubGraphPathReviserRead,
  SubGraphPathReviserUpdate,
} from "./sub_graph_path.graph.ts";
import type { PaperCritiqueB1Read, PaperCritiqueB1Update } from "./sub_graph_inline.graph.ts";
import { editorModel, reviserModel, writerModel } from "./models.ts";

export async function writeArticle(state: SubGraphPathWriterRead, ctx: NodeContext): Promise<SubGraphPathWriterUpdate> {
  const article = await writerModel.complete([{ role: "user", content: `以「${state.word}」为题写一段散文。` }], {
    signal: ctx.signal,
  });
  return { article };
}

export async function reviseArticle(
  state: SubGraphPathReviserRead,
  ctx: NodeContext,
): Promise<SubGraphPathReviserUpdate> {
  const draft = await reviserModel.complete(
    [{ role: "user", content: `文章：${state.article}\n建议：${state.summary}` }],
    { signal: ctx.signal },
  );
  return { final: `${draft}\n${state.article}` };
}

export async function editorCritique(state: PaperCritiqueB1Read, ctx: NodeContext): Promise<PaperCritiqueB1Update> {
  const summary = await editorModel.complete([{ role: "user", content: `请审阅：${state.article}` }], {
    signal: ctx.signal,
  });
  return { summary };
}
