/** react.yaml's parent agents: the task normalizer and the QA editor that sends work back with a TODO list. */
import type {
  ReactMainTaskNormalizerRead,
  ReactMainTaskNormalizerUpdate,
  ReactMainFinalQaEditorRead,
  ReactMainFinalQaEditorUpdate,
} from "./react.graph.ts";

export function normalizeTask(state: ReactMainTaskNormalizerRead): ReactMainTaskNormalizerUpdate {
  // ChatDev's normalizer emits a JSON task spec and must not answer
  return { task_spec: JSON.stringify({ goal: state.request, constraints: ["给出天气和温度（注明单位）"] }) };
}

export function reviewAnswer(state: ReactMainFinalQaEditorRead): ReactMainFinalQaEditorUpdate {
  const todo = state.answer.includes("°C") ? [] : ["TODO: 温度请注明单位（°C）"];
  const report = todo.length === 0 ? `通过：${state.answer}` : `${state.answer}\n${todo.join("\n")}`;
  return { todo, reviews: 1, report };
}
