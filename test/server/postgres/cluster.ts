/**
 * A scale-out deployment for the tests, all on 127.0.0.1: API processes (`graphc serve --postgres`) and
 * worker processes (`graphc worker --postgres`), real child processes of the repository's CLI
 * (bin/graphc-dev.mjs), sharing one Postgres schema of their own (dropped by `stop()`, with pg-boss's).
 * Every process is stopped by `stop()` — SIGTERM, then SIGKILL after a few seconds — so a failing test
 * leaves nothing running.
 */
import { join } from "node:path";
import pg from "pg";
import { Child, ROOT } from "../../durability/child.ts";
import { dropSchema, postgresUrl } from "../../savers/pg-env.ts";

const CLI = join(ROOT, "bin", "graphc-dev.mjs");

export interface ClusterOptions {
  /** unique per test file: `<name>_<pid>_<time>` */
  name: string;
  files: string[];
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  heartbeatMs?: number;
}

export class Cluster {
  readonly url = postgresUrl();
  readonly schema: string;
  readonly children: Child[] = [];
  private admin: pg.Pool | undefined;

  constructor(private readonly o: ClusterOptions) {
    this.schema = `${o.name}_${process.pid}_${Date.now().toString(36)}`;
  }

  private spawn(command: string, extra: string[]): Child {
    const args = [
      command,
      ...this.o.files,
      "--postgres",
      this.url,
      "--schema",
      this.schema,
      // a folder per process: processes compiling into one folder at once read each other's half-written files
      "--data",
      join(this.o.dataDir, String(this.children.length)),
      "--heartbeat-ms",
      String(this.o.heartbeatMs ?? 500),
      ...extra,
    ];
    const child = new Child(CLI, args, { ...process.env, ...this.o.env });
    this.children.push(child);
    return child;
  }

  /** An API process; resolves to its base URL. */
  async api(): Promise<string> {
    const child = this.spawn("serve", ["--port", "0"]);
    const line = await child.line(/https?:\/\/127\.0\.0\.1:\d+/);
    return line.match(/https?:\/\/127\.0\.0\.1:\d+/)![0];
  }

  /** A worker process; resolves once it claims runs. */
  async worker(concurrency: number): Promise<Child> {
    const child = this.spawn("worker", ["--concurrency", String(concurrency)]);
    await child.line(/^graphc worker \S+ ready/);
    return child;
  }

  /** SQL on the cluster's schema (the test's own look at runs, workers and checkpoints). */
  query<R extends pg.QueryResultRow>(sql: string, args: unknown[] = []): Promise<pg.QueryResult<R>> {
    this.admin ??= new pg.Pool({ connectionString: this.url, max: 2 });
    return this.admin.query<R>(sql.replaceAll("$schema", `"${this.schema}"`), args);
  }

  /** Stops one process gracefully (SIGTERM), or with SIGKILL when it has not exited after 8 s. */
  async terminate(c: Child): Promise<void> {
    if (c.proc.exitCode !== null || c.proc.signalCode !== null) return;
    c.proc.kill("SIGTERM");
    const timer = setTimeout(() => c.proc.kill("SIGKILL"), 8000);
    await c.exited;
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((c) => this.terminate(c)));
    await this.admin?.end();
    await this.dropExtra(this.schema);
    await this.dropExtra(`${this.schema}_queue`);
  }

  /** Drops a schema this cluster's user made beside its own (and its tables). */
  dropExtra(schema: string): Promise<void> {
    return dropSchema(this.url, schema);
  }
}
