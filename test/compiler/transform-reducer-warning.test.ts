/**
 * G5004 with an `in = fn` transform: the transform fills only the child's input fields, so a child output
 * field outside its input starts empty in every run and returning it through an `append` reducer adds only
 * what the child wrote (no warning); an output field that is also an input may carry the old value (warning).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { check } from "../../compiler/check.ts";
import { tempDir } from "../temp-dir.ts";

const tmp = tempDir("transform-reducer");
afterAll(() => tmp.remove());

function codes(out: string): string[] {
  const file = join(tmp.dir, `${out}.graph`);
  writeFileSync(join(tmp.dir, "nodes.ts"), "export const add = () => ({ notes: ['x'], fresh: ['y'] });\nexport const into = (s: { notes: string[] }) => ({ notes: s.notes });\n");
  writeFileSync(
    file,
    `import { add, into } from "./nodes.ts"
graph Child {
  state { notes: string[] = [] reduce append, fresh: string[] = [] reduce append }
  input  { notes }
  output { notes, fresh }
  node add({ notes }) -> { notes, fresh } = add
  START -> add -> END
}
graph Parent {
  state { notes: string[] = [] reduce append }
  subgraph child = Child { in = into  out { ${out} -> notes } }
  START -> child -> END
}
`,
  );
  return check([file]).diagnostics.map((d) => d.code);
}

describe("G5004 through a TS input transform", () => {
  it("warns when the returned child field is one of the child's inputs", () => {
    expect(codes("notes")).toContain("G5004");
  });

  it("does not warn when the returned child field starts empty in every run", () => {
    expect(codes("fresh")).not.toContain("G5004");
    expect(codes("fresh").filter((c) => c.startsWith("G"))).toEqual([]);
  });
});
