/** article_discuss: three critics (one function, school chosen by node name) and the editor who merges. */
import type { NodeContext } from "@graphc/runtime";
import type {
  ArticleDiscussRomanticismRead,
  ArticleDiscussRomanticismUpdate,
  ArticleDiscussEditorRead,
  ArticleDiscussEditorUpdate,
} from "./article_discuss.graph.ts";
import { criticModel, editorModel } from "./models.ts";

// the three critic nodes read and write the same fields, so they share one signature
export async function critique(
  state: ArticleDiscussRomanticismRead,
  ctx: NodeContext,
): Promise<ArticleDiscussRomanticismUpdate> {
  const text = await criticModel.complete(
    [
      { role: "system", content: `你是一位作家，流派：${ctx.node}。请对文章给出一条修改建议。` },
      { role: "user", content: state.article },
    ],
    { signal: ctx.signal },
  );
  return { suggestions: [{ school: ctx.node, text }] };
}

export async function mergeSuggestions(
  state: ArticleDiscussEditorRead,
  ctx: NodeContext,
): Promise<ArticleDiscussEditorUpdate> {
  // sorted by school so the summary does not depend on which critic finished first
  const lines = [...state.suggestions].sort((a, b) => a.school.localeCompare(b.school)).map((s) => `- ${s.text}`);
  const summary = await editorModel.complete([{ role: "user", content: `请合并以下建议：\n${lines.join("\n")}` }], {
    signal: ctx.signal,
  });
  return { summary };
}
