/**
 * Finds the Postgres the saver tests run against: GRAPHC_PG_URL from the environment or from .ci/pg.env
 * (written by .ci/services.sh). Outside CI a missing database is started with .ci/services.sh; in CI
 * (`CI` set) it is an error, so a broken service setup can never pass as skipped tests.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";

const root = fileURLToPath(new URL("../../", import.meta.url));
const envFile = `${root}.ci/pg.env`;

function fromFile(): string | undefined {
  if (!existsSync(envFile)) return undefined;
  const line = readFileSync(envFile, "utf8")
    .split("\n")
    .find((l) => l.startsWith("GRAPHC_PG_URL="));
  return line?.slice("GRAPHC_PG_URL=".length).trim() || undefined;
}

export function postgresUrl(): string {
  const url = process.env.GRAPHC_PG_URL || fromFile();
  if (url !== undefined) return url;
  if (process.env.CI) {
    throw new Error("GRAPHC_PG_URL is not set and .ci/pg.env is missing: run `bash .ci/services.sh` before the tests.");
  }
  execFileSync("bash", [`${root}.ci/services.sh`], { stdio: "inherit" });
  const started = fromFile();
  if (started === undefined) throw new Error(".ci/services.sh ran but wrote no GRAPHC_PG_URL to .ci/pg.env");
  return started;
}

/** Drops a test run's schema (its tables go with it). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}
