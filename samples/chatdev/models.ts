/**
 * Scripted stand-ins for the ChatDev demos' agents: each "agent" is a deterministic function of its
 * prompt, so the demos run offline and their output can be asserted. Where ChatDev uses a `literal`
 * node (a fixed text, no model) the node functions do not call a model at all.
 */
import { ScriptedModel, lastUserText } from "../shared/chat-model.ts";

/** Writer: turns a word into a (short) prose piece */
export const writerModel = new ScriptedModel("scripted-writer", (turns) => {
  const word = /「(.+?)」/.exec(lastUserText(turns))?.[1] ?? "";
  return `《${word}》：清晨的${word}在窗边停留，像一封没有寄出的信。人们路过它，又回头看它。`;
});

/** Critics of three schools: each answers with one suggestion in its own voice */
const SCHOOLS: Record<string, string> = {
  romanticism: "浪漫主义：加强情感的起伏，让景物替人物抒情。",
  realism: "现实主义：补上具体的时间、地点和人物动作。",
  magical_realism: "魔幻现实主义：让一件不可能的小事被平静地讲述。",
};
export const criticModel = new ScriptedModel("scripted-critic", (turns) => {
  const school = /流派：(\w+)/.exec(turns[0]?.content ?? "")?.[1] ?? "";
  return SCHOOLS[school] ?? "（无建议）";
});

/** Editor: merges suggestions, or critiques an article directly (the inline demo's B1) */
export const editorModel = new ScriptedModel("scripted-editor", (turns) => {
  const prompt = lastUserText(turns);
  const lines = prompt.split("\n").filter((l) => l.startsWith("- "));
  if (lines.length > 0) return `修改建议汇总（${lines.length} 条）：${lines.map((l) => l.slice(2)).join(" ")}`;
  return "修改建议：开头点题更快一些，结尾留一个意象。";
});

/** Reviser: applies the suggestions to the article */
export const reviserModel = new ScriptedModel("scripted-reviser", (turns) => {
  const prompt = lastUserText(turns);
  const suggestions = /建议：([\s\S]*)$/.exec(prompt)?.[1]?.trim() ?? "";
  const count = (suggestions.match(/。/g) ?? []).length; // one sentence per suggestion
  return `终稿（采纳 ${count} 处修改）`;
});
