/**
 * Thread locks of PostgresSaver (docs/durability.md, "One run per thread"): session-level advisory locks,
 * all held on one connection that this saver takes out of its pool while it holds at least one lock and
 * gives back when it holds none. Postgres drops a session's advisory locks when the session ends, so a
 * worker that dies (SIGKILL included) or loses its connection releases its threads without any clean-up.
 *
 * Why one shared connection and not one per run: a pool of 10 serving 200 concurrent runs would be drained
 * by the lock holders and deadlock. Advisory locks are re-entrant within a session, which is harmless here:
 * runs of this process are already serialised per saver and thread by the runtime (thread-lock.ts).
 * The key is a 64-bit hash of (schema, thread id), in the bigint key space; setup()'s lock uses two int4
 * keys, a separate space.
 */
import type pg from "pg";
import { type LockThreadOptions, type ThreadLock, tryUntil } from "@graphc/runtime/saver";

export class PostgresThreadLocks {
  private connection: Promise<pg.PoolClient> | undefined;
  /** locks held plus attempts in flight: the connection goes back to the pool when this reaches 0 */
  private users = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
  ) {}

  async lock(threadId: string, options: LockThreadOptions): Promise<ThreadLock | undefined> {
    const key = `${this.schema.length}:${this.schema}:${threadId}`;
    this.users++;
    let got: true | undefined;
    try {
      got = await tryUntil(() => this.tryLock(key), options.wait, options.signal);
    } finally {
      if (got === undefined) this.done();
    }
    if (got === undefined) return undefined;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await this.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]);
        } catch {
          // the failed connection was destroyed (discard): the lock ended with its session, as releasing wanted
        } finally {
          this.done();
        }
      },
    };
  }

  private async tryLock(key: string): Promise<true | undefined> {
    const rows = await this.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok", [key]);
    return rows[0]?.ok === true ? true : undefined;
  }

  private async query<R extends pg.QueryResultRow>(sql: string, args: unknown[]): Promise<R[]> {
    const connection = this.client();
    const client = await connection;
    try {
      return (await client.query<R>(sql, args)).rows;
    } catch (e) {
      this.discard(connection, e as Error);
      throw e;
    }
  }

  private client(): Promise<pg.PoolClient> {
    if (this.connection === undefined) {
      const connecting: Promise<pg.PoolClient> = this.pool.connect().then((client) => {
        // an error on a checked-out client has no other listener: without this one it would kill the process
        const onError = (e: Error) => this.discard(connecting, e);
        client.on("error", onError);
        errorListeners.set(client, onError);
        return client;
      });
      connecting.catch(() => {
        if (this.connection === connecting) this.connection = undefined;
      });
      this.connection = connecting;
    }
    return this.connection;
  }

  /**
   * A failed connection is destroyed (released with an error), never returned to the pool: a lock it may
   * still hold dies with it. Later attempts take a new connection.
   */
  private discard(connection: Promise<pg.PoolClient>, e: Error): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    connection.then(
      (client) => giveBack(client, e),
      () => {},
    );
  }

  private done(): void {
    if (--this.users > 0) return;
    const connection = this.connection;
    this.connection = undefined;
    connection?.then(
      (client) => giveBack(client, undefined),
      () => {},
    );
  }
}

/** The error listener added to each checked-out client, removed when it goes back (the pool reuses clients). */
const errorListeners = new WeakMap<pg.PoolClient, (e: Error) => void>();

/** Returns a client to the pool (destroyed when `e` is given) without the error listener added above. */
function giveBack(client: pg.PoolClient, e: Error | undefined): void {
  const onError = errorListeners.get(client);
  if (onError !== undefined) client.removeListener("error", onError);
  errorListeners.delete(client);
  client.release(e);
}
