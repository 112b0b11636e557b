/**
 * react_agent subgraph: the brain (Thought / Action / Action Input), the tool executor and the answer
 * synthesizer. The brain is scripted: look up the city number, then the weather, then answer — and
 * honour the QA editor's TODO list when the parent sends the work back.
 */
import type { NodeContext } from "@graphc/runtime";
import type {
  ReactAgentReactBrainRead,
  ReactAgentReactBrainUpdate,
  ReactAgentToolExecutorRead,
  ReactAgentToolExecutorUpdate,
  ReactAgentAnswerSynthesizerRead,
  ReactAgentAnswerSynthesizerUpdate,
  ReactAgentVars,
} from "./react_agent.graph.ts";

/** the subgraph's function tools (ChatDev's get_city_num / get_weather), deterministic */
export const TOOLS: Record<string, (input: string) => string> = {
  get_city_num: (city) => ({ 巴黎: "75", 上海: "021" })[city] ?? "unknown",
  get_weather: (num) => ({ "75": "晴，22，微风", "021": "多云，18" })[num] ?? "无数据",
};

export function brain(state: ReactAgentReactBrainRead, ctx: NodeContext<ReactAgentVars>): ReactAgentReactBrainUpdate {
  const seen = state.steps.filter((s) => s.observation !== undefined);
  const last = seen.at(-1);
  if (seen.length >= ctx.vars.maxSteps) {
    return { action: "FINAL", steps: [{ thought: "步数用尽", action: "FINAL", input: last?.observation ?? "" }] };
  }
  if (seen.length === 0) {
    const city = /巴黎|上海/.exec(state.task)?.[0] ?? "巴黎";
    return {
      action: "get_city_num",
      steps: [{ thought: `先查${city}的城市编号`, action: "get_city_num", input: city }],
    };
  }
  // an observation step records the tool it observed in `input`
  if (last?.input === "get_city_num") {
    return {
      action: "get_weather",
      steps: [{ thought: "再查天气", action: "get_weather", input: last.observation ?? "" }],
    };
  }
  const [sky = "", temp = ""] = (last?.observation ?? "").split("，");
  const withUnit = state.feedback.some((todo) => todo.includes("单位"));
  const answer = `${sky}，${temp}${withUnit ? "°C" : ""}，适合散步`;
  return { action: "FINAL", steps: [{ thought: "信息足够，给出答案", action: "FINAL", input: answer }] };
}

export function runTool(state: ReactAgentToolExecutorRead): ReactAgentToolExecutorUpdate {
  const call = state.steps.at(-1);
  if (call === undefined) return { steps: [] };
  const tool = TOOLS[call.action];
  const observation = tool ? tool(call.input) : `unknown tool ${call.action}`;
  return { steps: [{ thought: "", action: "observation", input: call.action, observation }] };
}

export function synthesize(state: ReactAgentAnswerSynthesizerRead): ReactAgentAnswerSynthesizerUpdate {
  // strip the Thought/Action scaffolding: the answer is the FINAL step's input
  const final = state.steps.filter((s) => s.action === "FINAL").at(-1);
  return { answer: final?.input ?? "" };
}
