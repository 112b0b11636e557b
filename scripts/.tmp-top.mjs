import { readFileSync } from "node:fs";
import { ts } from "ts-morph";
import { decodeMappings } from "./vlq.mjs";
const f = process.argv[2];
const code = readFileSync(f, "utf8");
const map = JSON.parse(readFileSync(f + ".map", "utf8"));
const segs = decodeMappings(map.mappings)[0];
const srcAt = (pos) => { let best; for (const s of segs) { if (s[0] > pos) break; if (s.length >= 4) best = s; } return best ? `${map.sources[best[1]].replace(/^(\.\.\/)+/, "")}:${best[2] + 1}` : "?"; };
const sf = ts.createSourceFile(f, code, ts.ScriptTarget.Latest, true);
const rows = [];
const visit = (n, depth) => {
  for (const s of n.statements ?? n.members ?? []) {
    const size = s.getEnd() - s.getStart();
    rows.push([size, srcAt(s.getStart()), code.slice(s.getStart(), s.getStart() + 60).replace(/\n/g, " ")]);
    if (ts.isClassDeclaration(s) || (ts.isVariableStatement(s))) {
      // members of classes in var statements
      s.forEachChild?.((c) => { if (ts.isClassExpression?.(c)) visit(c, depth + 1); });
    }
    if (ts.isClassDeclaration(s)) visit(s, depth + 1);
  }
};
visit(sf, 0);
rows.sort((a, b) => b[0] - a[0]);
for (const r of rows.slice(0, Number(process.argv[3] ?? 50))) console.log(String(r[0]).padStart(6), r[1].padEnd(30), r[2]);
