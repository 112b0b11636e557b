/** The embedded backend against the Backend contract (backend-contract.ts), restart included. */
import { afterAll } from "vitest";
import { SqliteBackend } from "../../server/sqlite-backend.ts";
import { tempDir } from "../temp-dir.ts";
import { backendContract } from "./backend-contract.ts";

const tmp = tempDir("server-backend");
afterAll(() => tmp.remove());
let n = 0;
const dirs = new WeakMap<object, string>();

backendContract(
  "SqliteBackend",
  async () => {
    const dataDir = `${tmp.dir}/db-${n++}`;
    const b = new SqliteBackend({ dataDir });
    dirs.set(b, dataDir);
    return b;
  },
  {
    async reopen(b) {
      const dataDir = dirs.get(b)!;
      await b.close();
      return new SqliteBackend({ dataDir });
    },
  },
);
