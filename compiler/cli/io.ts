/**
 * What the CLI needs from its process, as one object: tests run `main(argv, io)` in-process with a fake io
 * over a temp directory; `nodeIO()` is the real thing.
 */
export interface CliIO {
  /** directory that relative paths and globs are resolved against */
  readonly cwd: string;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** whether stdout / stderr are terminals (colour is used only on a terminal) */
  readonly isTTY: { readonly stdout: boolean; readonly stderr: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** ends `--watch` (the real CLI passes one aborted on SIGINT) */
  readonly signal?: AbortSignal | undefined;
}

export function nodeIO(signal?: AbortSignal): CliIO {
  return {
    cwd: process.cwd(),
    stdout: pipeWriter(process.stdout),
    stderr: pipeWriter(process.stderr),
    isTTY: { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true },
    env: process.env,
    signal,
  };
}

/**
 * Writes to a process stream. When its reader goes away (`graphc check --format json | head -c 100`), the
 * stream reports EPIPE as an 'error' event, which unhandled would crash the CLI with a stack trace: here it
 * ends that stream's output quietly instead. The command still finishes its work and exits with its usual
 * code; other stream errors still surface.
 */
function pipeWriter(stream: NodeJS.WriteStream): (text: string) => void {
  let closed = false;
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE" && e.code !== "ERR_STREAM_DESTROYED") throw e;
    closed = true;
  });
  return (text) => {
    if (!closed && !stream.destroyed) stream.write(text);
  };
}

/** Exit codes: 0 no errors (warnings allowed), 1 errors in the input (or stale output), 2 usage error. */
export const EXIT = { ok: 0, errors: 1, usage: 2 } as const;

/** A mistake in how graphc was called (unknown file, bad flag combination): exit code 2. */
export class UsageError extends Error {}

/** Colour on a terminal only; `NO_COLOR` (any non-empty value) turns it off, `FORCE_COLOR` turns it on. */
export function useColor(io: CliIO, stream: "stdout" | "stderr"): boolean {
  if (io.env["NO_COLOR"] !== undefined && io.env["NO_COLOR"] !== "") return false;
  const force = io.env["FORCE_COLOR"];
  if (force !== undefined && force !== "" && force !== "0") return true;
  return io.isTTY[stream];
}
