/**
 * The scripted "model" of this sample: deterministic answers to the two prompts of seed 000, so the
 * sample runs offline and its output can be asserted. The prompts are the seed's.
 */
import { ScriptedModel, lastUserText } from "../shared/chat-model.ts";

export const researchPrompt = (topic: string) => `请给出关于「${topic}」的 3 条关键要点`;
export const writePrompt = (notes: readonly string[]) => `基于以下要点写一篇 300 字短文：\n${notes.join("\n")}`;

export const scriptedModel = new ScriptedModel("scripted", (turns) => {
  const prompt = lastUserText(turns);
  const topic = /「(.+)」/.exec(prompt)?.[1];
  if (topic !== undefined) {
    return [
      `1. ${topic}让用户尽早看到进展，缩短感知等待时间`,
      `2. ${topic}暴露中间步骤，便于调试与观测`,
      `3. ${topic}支持按子图命名空间渲染层级进度`,
    ].join("\n");
  }
  const points = prompt
    .split("\n")
    .slice(1)
    .filter((l) => /^\d+\./.test(l));
  return `短文（基于 ${points.length} 条要点）：${points.map((p) => p.replace(/^\d+\.\s*/, "")).join("；")}。`;
});
