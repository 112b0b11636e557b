/**
 * `graphc serve` as a child process, as a user starts it (bin/graphc-dev.mjs: the repository's command,
 * through tsx), on 127.0.0.1 and a free port (`--port 0`; the URL is read from its first line). Every
 * server is stopped by the test that started it, and killed if it does not stop in time.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CUSTOMER_SERVICE = join(ROOT, "samples", "customer-service", "customer_service.graph");
export const SLOW = join(ROOT, "test", "server", "fixtures", "slow.graph");

export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** everything it printed so far */
  output(): string;
  /** SIGTERM (graceful) or SIGKILL; resolves with the exit code once it has exited */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<number | null>;
}

/** the repository's command (cwd = the repository: tsx resolves the packages' names through its tsconfig.json `paths`) */
const REPO = { bin: join(ROOT, "bin", "graphc-dev.mjs"), cwd: ROOT };

/** `from`: another `graphc` command and its project (test/consumer: the CLI installed from the tarballs) */
export async function startServer(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
  from: { bin: string; cwd: string } = REPO,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [from.bin, "serve", "--port", "0", ...args], {
    cwd: from.cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`graphc serve did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const look = () => {
      const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on("data", look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`graphc serve exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
