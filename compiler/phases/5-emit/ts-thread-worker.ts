/**
 * The worker thread of ts-thread.ts. As it starts: the user's tsconfig settings, read by the native binary
 * it starts (the main thread needs them to emit, and would otherwise start a binary of its own to read
 * them); then one TypeScript pass on the job it is sent (typecheck-run.ts, on the world a build in the
 * main thread would use) with its `isSync` answers, and it ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { runTypecheck } from "./typecheck-run.ts";
import { NativeWorld } from "./ts-native.ts";
import { nativeApi } from "../../ts-native-api.ts";
import { userTsconfig } from "../../user-tsconfig.ts";
import type { ThreadJob, ThreadMessage } from "./ts-thread.ts";

const port = parentPort!;
const cwd = (workerData as { cwd: string }).cwd;
port.postMessage({ tsconfig: userTsconfig(cwd) } satisfies ThreadMessage);
port.once("message", (job: ThreadJob) => {
  void answer(job).then((m) => {
    port.postMessage(m satisfies ThreadMessage);
    nativeApi()?.close();
    port.close();
  });
});

async function answer(job: ThreadJob): Promise<ThreadMessage> {
  // ts-morph's pass only where the binary does not run (loaded then: it is large)
  const world = NativeWorld.shared(cwd) ?? (await import("./ts-check.ts")).TsWorld.shared(cwd);
  const answer = runTypecheck(world, job);
  return { ...answer, sync: job.queries.map((q) => world.isSync(q.fn, q.outFile)) };
}
