/**
 * The customer-service demo: `npx tsx samples/customer-service/main.ts` (after building, see README;
 * `npm start` builds everything and runs this). Starts from a fresh demo database every time.
 */
import { rmSync } from "node:fs";
import { DATA_DIR, auditRows, closeDb, openDb } from "./db.ts";
import { runConversation } from "./conversation.ts";
import { isMain } from "../shared/is-main.ts";

export async function main(log: (line: string) => void = console.log) {
  closeDb("customer-service.db");
  rmSync(DATA_DIR, { recursive: true, force: true }); // fresh demo data and conversation
  const { turns, audit } = await runConversation({ log });
  log("");
  log(`audit log (${audit.length} rows):`);
  for (const row of auditRows(openDb("customer-service.db"))) {
    log(
      `  #${row.id} ${row.actor} ${row.action} ${row.entity}/${row.entity_id} ${row.before ?? "∅"} → ${row.after ?? "∅"}`,
    );
  }
  return { turns, audit };
}

if (isMain(import.meta.url)) await main();
