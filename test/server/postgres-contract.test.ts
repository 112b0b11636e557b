/**
 * The Postgres backend against the Backend contract (backend-contract.ts), restart included: each backend
 * on a schema of its own, dropped afterwards (with pg-boss's).
 */
import { afterAll } from "vitest";
import { PostgresBackend } from "../../server/postgres/backend.ts";
import { dropSchema, postgresUrl } from "../savers/pg-env.ts";
import { backendContract } from "./backend-contract.ts";

const url = postgresUrl();
const prefix = `graphc_pgc_${process.pid}_${Date.now().toString(36)}`;
const schemas: string[] = [];
const schemaOf = new WeakMap<object, string>();

afterAll(async () => {
  for (const s of schemas) {
    await dropSchema(url, s);
    await dropSchema(url, `${s}_queue`);
  }
});

async function open(schema: string): Promise<PostgresBackend> {
  const b = await PostgresBackend.open(url, { schema, pollMs: 100, heartbeat: { intervalMs: 200 } });
  schemaOf.set(b, schema);
  return b;
}

backendContract(
  "PostgresBackend",
  () => {
    const schema = `${prefix}_${schemas.length}`;
    schemas.push(schema);
    return open(schema);
  },
  {
    async reopen(b) {
      const schema = schemaOf.get(b)!;
      await b.close();
      return open(schema);
    },
  },
);
