/**
 * `npm start`: builds every sample, then runs the customer-service demo — a scripted conversation with
 * streamed progress per subgraph namespace and the state after each turn. Offline: the scripted model
 * answers unless OPENAI_API_KEY is set.
 */
import { buildSamples } from "./build.ts";

console.log("graphc: compiling the samples' .graph files and type-checking their node functions…");
const build = await buildSamples();
if (build.report) console.error(build.report);
if (!build.ok) {
  console.error("graphc could not build the samples (see above)");
  process.exit(1);
}
console.log(`graphc: built ${build.files.length} .graph files (samples/**/*.graph.ts)\n`);
console.log("== customer service (seed 004): reception -> query -> decide -> execution, SQLite-backed");

// imported only now: the module imports the code generated a moment ago
const { main } = await import("./customer-service/main.ts");
await main();
