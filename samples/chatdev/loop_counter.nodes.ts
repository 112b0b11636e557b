/** demo_loop_counter: literal nodes (fixed texts, no model) and the loop gate's counter. */
import type {
  LoopCounterWriterRead,
  LoopCounterWriterUpdate,
  LoopCounterCriticRead,
  LoopCounterCriticUpdate,
  LoopCounterLoopGateUpdate,
  LoopCounterFinalizerRead,
  LoopCounterFinalizerUpdate,
} from "./loop_counter.graph.ts";

export function literalWriter(state: LoopCounterWriterRead): LoopCounterWriterUpdate {
  return { drafts: [`${state.topic} 草稿 v${state.iterations + 1}`] };
}

export function literalCritic(state: LoopCounterCriticRead): LoopCounterCriticUpdate {
  return { critiques: [`${state.drafts.at(-1)}：再具体一些`] };
}

/** each pass adds 1 (the field's reducer is `sum`); the edge after the gate leaves the loop at 3 */
export function countLoop(): LoopCounterLoopGateUpdate {
  return { iterations: 1 };
}

export function finalize(state: LoopCounterFinalizerRead): LoopCounterFinalizerUpdate {
  return { final: `定稿：${state.drafts.at(-1)}（共 ${state.iterations} 轮）` };
}
