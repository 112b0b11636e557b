import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { decodeMappings } from "./vlq.mjs";
const dist = process.argv[2];
const tot = {};
for (const f of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  if (!f.endsWith(".js")) continue;
  const code = readFileSync(join(dist, f), "utf8").split("\n");
  let map; try { map = JSON.parse(readFileSync(join(dist, f + ".map"), "utf8")); } catch { continue; }
  const lines = decodeMappings(map.mappings);
  lines.forEach((segs, li) => {
    const line = code[li] ?? "";
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]; const end = i + 1 < segs.length ? segs[i + 1][0] : line.length;
      if (s.length < 2) continue;
      const src = f.split("/")[0] === "chunks" ? "chunk:" + map.sources[s[1]] : f + ":" + map.sources[s[1]];
      const k = map.sources[s[1]].replace(/^(\.\.\/)+/, "");
      tot[k] = (tot[k] ?? 0) + (end - s[0]);
    }
  });
}
for (const [k, v] of Object.entries(tot).sort((a, b) => b[1] - a[1])) console.log(String(v).padStart(6), k);
