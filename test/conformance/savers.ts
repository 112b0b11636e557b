/**
 * The three checkpointers the F–H cases run against. Postgres: GRAPHC_PG_URL or .ci/pg.env (see
 * test/savers/pg-env.ts: without them CI fails, a developer machine starts .ci/services.sh); every run uses a
 * fresh schema, dropped afterwards.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { MemorySaver, type CheckpointSaver } from "@graphc/runtime";
import { SqliteSaver } from "@graphc/checkpoint-sqlite";
import { PostgresSaver } from "@graphc/checkpoint-postgres";
import { dropSchema, postgresUrl } from "../savers/pg-env.ts";
import { OUT_DIR } from "./build.ts";

export interface SaverUnderTest {
  readonly saver: CheckpointSaver;
  close(): Promise<void>;
}

export type SaverKind = "memory" | "sqlite" | "postgres";
export const SAVER_KINDS: readonly SaverKind[] = ["memory", "sqlite", "postgres"];

export async function openSaver(kind: SaverKind): Promise<SaverUnderTest> {
  const tag = `${process.pid}_${Date.now().toString(36)}`;
  if (kind === "memory") return { saver: new MemorySaver(), close: async () => {} };
  if (kind === "sqlite") {
    const file = join(OUT_DIR, `conformance-${tag}.db`);
    const saver = new SqliteSaver(file);
    return {
      saver,
      close: async () => {
        saver.close();
        for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const url = postgresUrl();
  const schema = `graphc_conformance_${tag}`;
  const saver = PostgresSaver.fromConnString(url, { schema });
  await saver.setup();
  return {
    saver,
    close: async () => {
      await saver.end();
      await dropSchema(url, schema);
    },
  };
}
