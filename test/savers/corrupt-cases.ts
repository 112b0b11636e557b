/**
 * Hand-corrupted checkpoint rows, shared by the SQLite and Postgres corruption tests: each case damages
 * the rows of a seeded thread with plain SQL (as a bad migration, a manual edit or a disk fault would) and
 * says which CORRUPT_CHECKPOINT a fresh saver must report. SQL uses `{checkpoints}`, `{blobs}`, `{writes}`
 * for the tables and `?` for parameters; each test file maps them to its database.
 */
import { expect } from "vitest";
import { MAX_DEPTH } from "../../runtime/checkpoint/delta.ts";
import { CorruptCheckpointError } from "../../runtime/checkpoint/corrupt.ts";
import { CheckpointError } from "../../runtime/checkpoint/errors.ts";
import type { CheckpointSaver, RunnableConfig } from "../../runtime/checkpoint/types.ts";
import { cfg, checkpoint, meta } from "./conformance.ts";

export type Sql = (text: string, ...params: unknown[]) => Promise<void>;

/**
 * A thread of three checkpoints: `messages` grows by one message per step (a full blob in the first,
 * append blobs in the next two, each based on the one before), `profile` is a long object stored once in
 * the first and referenced after, and the last checkpoint has a pending write.
 */
export interface Seeded {
  thread: string;
  ids: [first: string, second: string, last: string];
}

// the first message is long, so the next ones fit in append blobs (an append chain ends when it outgrows its snapshot)
const msg = (i: number) => ({ id: `m${i}`, text: `message ${i} `.repeat(i === 0 ? 40 : 2) });

export async function seed(saver: CheckpointSaver, thread: string): Promise<Seeded> {
  const profile = { name: "Ada", bio: "b".repeat(80) };
  let config: RunnableConfig = cfg(thread);
  const ids: string[] = [];
  let messages: unknown[] = [];
  for (let step = 0; step < 3; step++) {
    messages = [...messages, msg(step)];
    const cp = checkpoint({ messages, profile }, { messages: step + 1, profile: 1 });
    config = await saver.put(config, cp, meta(step), step === 0 ? { messages: 1, profile: 1 } : { messages: step + 1 });
    ids.push(cp.id);
  }
  await saver.putWrites(config, [["messages", msg(3)]], "task-3");
  return { thread, ids: ids as Seeded["ids"] };
}

export interface Corruption {
  name: string;
  damage(sql: Sql, s: Seeded): Promise<void>;
  /** the checkpoint named by the error (index into `ids`), the channel, and what was wrong */
  checkpoint: 0 | 1 | 2;
  channel: string | undefined;
  problem: RegExp;
}

/** rows of a fake append chain: `n` append blobs z00000… each extending the previous, the first extending `base` */
function fakeChain(s: Seeded, n: number, base: string): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `z${String(i).padStart(5, "0")}`;
    const prev = i === 0 ? base : `z${String(i - 1).padStart(5, "0")}`;
    rows.push(`('${s.thread}', '', '${id}', 'messages', 1, '${prev}', '[1]', ${i + 1}, 3, 10)`);
  }
  return rows.join(", ");
}

export const CORRUPTIONS: Corruption[] = [
  {
    name: "a blob whose base is its own checkpoint",
    damage: (sql, s) => sql("UPDATE {blobs} SET base = checkpoint_id WHERE checkpoint_id = ? AND channel = 'messages'", s.ids[2]),
    checkpoint: 2,
    channel: "messages",
    problem: /delta chain of the stored value loops: the blob of checkpoint "[^"]+" extends itself/,
  },
  {
    name: "two blobs based on each other",
    damage: (sql, s) => sql("UPDATE {blobs} SET base = ? WHERE checkpoint_id = ? AND channel = 'messages'", s.ids[2], s.ids[1]),
    checkpoint: 2,
    channel: "messages",
    problem: /loops: the blob of checkpoint "[^"]+" extends the blob of checkpoint "[^"]+", which is already in its chain/,
  },
  {
    name: "an append chain longer than its bound",
    damage: async (sql, s) => {
      await sql(
        `INSERT INTO {blobs} (thread_id, checkpoint_ns, checkpoint_id, channel, kind, base, data, depth, chain, snap) VALUES ${fakeChain(s, MAX_DEPTH, s.ids[0])}`,
      );
      await sql("UPDATE {blobs} SET base = ? WHERE checkpoint_id = ? AND channel = 'messages'", `z${String(MAX_DEPTH - 1).padStart(5, "0")}`, s.ids[1]);
    },
    checkpoint: 2,
    channel: "messages",
    problem: new RegExp(`delta chain of the stored value is longer than its bound of ${MAX_DEPTH + 1} rows`),
  },
  {
    name: "a non-JSON header",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET header = 'not json {' WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: undefined,
    problem: /header is not valid JSON: .*"not json \{"/,
  },
  {
    name: "a header without its ts field",
    damage: (sql, s) => sql(`UPDATE {checkpoints} SET header = '{"v":1,"cv":{},"vs":{},"vals":{}}' WHERE checkpoint_id = ?`, s.ids[2]),
    checkpoint: 2,
    channel: undefined,
    problem: /header field "ts" is missing, not a string/,
  },
  {
    name: "a header entry that is neither a value nor a reference",
    damage: (sql, s) =>
      sql(`UPDATE {checkpoints} SET header = '{"v":1,"ts":"x","cv":{},"vs":{},"vals":{"profile":7}}' WHERE checkpoint_id = ?`, s.ids[2]),
    checkpoint: 2,
    channel: "profile",
    problem: /header entry is a number, not "=<value>" or "@<checkpoint id>"/,
  },
  {
    name: "non-JSON metadata",
    damage: (sql, s) => sql("UPDATE {checkpoints} SET metadata = '{step:' WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: undefined,
    problem: /the metadata cannot be decoded: .*"\{step:"/,
  },
  {
    name: "a non-JSON blob",
    damage: (sql, s) => sql("UPDATE {blobs} SET data = 'not json' WHERE channel = 'profile'"),
    checkpoint: 2,
    channel: "profile",
    problem: /the stored value cannot be decoded: .*"not json"/,
  },
  {
    name: "a broken element inside an append blob",
    damage: (sql, s) => sql(`UPDATE {blobs} SET data = '[{"id":]' WHERE checkpoint_id = ? AND channel = 'messages'`, s.ids[1]),
    checkpoint: 2,
    channel: "messages",
    problem: /the stored value cannot be decoded/,
  },
  {
    name: "an object where the chain's full array should be",
    damage: (sql, s) => sql(`UPDATE {blobs} SET data = '{"a":1}' WHERE checkpoint_id = ? AND channel = 'messages'`, s.ids[0]),
    checkpoint: 2,
    channel: "messages",
    problem: /the blob of checkpoint "[^"]+" holds "\{\\"a\\":1\}", not the non-empty array text a delta chain is made of/,
  },
  {
    name: "a tagged value whose payload has the wrong type",
    damage: (sql) => sql(`UPDATE {blobs} SET data = '{"$g":"m","v":5}' WHERE channel = 'profile'`),
    checkpoint: 2,
    channel: "profile",
    problem: /the stored value cannot be decoded: .*is not a function/,
  },
  {
    name: "the full blob of a chain deleted",
    damage: (sql, s) => sql("DELETE FROM {blobs} WHERE checkpoint_id = ? AND channel = 'messages'", s.ids[0]),
    checkpoint: 2,
    channel: "messages",
    problem: /extends checkpoint "[^"]+", which has no blob of this channel: the chain lost its full snapshot/,
  },
  {
    name: "a non-JSON pending write",
    damage: (sql, s) => sql("UPDATE {writes} SET value = '{oops' WHERE checkpoint_id = ?", s.ids[2]),
    checkpoint: 2,
    channel: "messages",
    problem: /the pending write of task task-3 cannot be decoded: .*"\{oops"/,
  },
];

/** Reads the thread's latest checkpoint with `saver` and checks the error against the case. */
export async function expectCorrupt(saver: CheckpointSaver, s: Seeded, c: Corruption): Promise<void> {
  const err = await saver.getTuple(cfg(s.thread)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CorruptCheckpointError);
  expect(err).toBeInstanceOf(CheckpointError);
  expect(err).toMatchObject({
    name: "CorruptCheckpointError",
    code: "CORRUPT_CHECKPOINT",
    threadId: s.thread,
    checkpointNs: "",
    checkpointId: s.ids[c.checkpoint],
    channel: c.channel,
    problem: expect.stringMatching(c.problem),
  });
  const message = (err as Error).message;
  expect(message).toContain(`thread ${JSON.stringify(s.thread)}`);
  expect(message).toContain(`checkpoint ${JSON.stringify(s.ids[c.checkpoint])}`);
  if (c.channel !== undefined) expect(message).toContain(`channel ${JSON.stringify(c.channel)}`);
}
