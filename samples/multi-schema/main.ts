/**
 * Seed 001, end to end: `npx tsx samples/multi-schema/main.ts` (after building the samples, see README).
 * Prints { graph_output: 'Dear 小黄, 早上好~ 很高兴认识你' } — only the output schema's field.
 */
import { MultiSchema } from "./multi_schema.graph.ts";
import { isMain } from "../shared/is-main.ts";

export async function run(username = "小黄") {
  return MultiSchema.invoke({ username });
}

if (isMain(import.meta.url)) console.log(await run());
