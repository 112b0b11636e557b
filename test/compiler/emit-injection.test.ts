/**
 * Injection safety: text from a `.graph` file (string literals in defaults, conditions, route keys, literal
 * types and vars; import paths; comments) reaches generated code only as escaped string literals that mean
 * exactly what the source said — or not at all (comments). No environment value is ever written into
 * generated code. Each payload is compiled (in memory, no TypeScript check) and the output is parsed by
 * TypeScript: it must have no syntax error and hold the payload as the value of its string literals.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ts } from "ts-morph";
import { compile, memoryHost } from "../../compiler/index.ts";

const PAYLOADS = [
  `it's "double" and 'single'`,
  "back`tick` and ${template} and `${nested}`",
  "*/ closes a comment /* opens one // line",
  "line\u2028separator\u2029paragraph",
  "new\nline\rreturn\ttab\0nul\b\f\v",
  "back\\slash \\\\ and \\u0041 raw",
  "中文 🎉 émoji ﻿bom",
  "</script><!-- -->",
  "\ud800 lone surrogate",
  '"; process.exit(1); "',
  "`); process.exit(1); (`",
];

/** a `.graph` string literal for `s` (JSON's escapes are all valid in the DSL) */
const dsl = (s: string) => JSON.stringify(s);

function source(payload: string): string {
  const lit = dsl(payload);
  // in `vars`, `${` starts an environment placeholder: `$${` is the escape for a literal `${`. A function
  // replacer, because in a replacement string `$$` means one `$` (so "$${" would put back the bare `${`).
  const varLit = dsl(payload.replace(/\$\{/g, () => "$${"));
  return `// comment payload: ${payload.replace(/[\n\r\u2028\u2029]/g, " ")} COMMENT-MARKER
import { f } from ${lit}
type Lit = ${lit} | "other"
graph G {
  vars { v: string = ${varLit} }
  state {
    a: string = ${lit}
    k: Lit = ${lit}
    list: string[] = [${lit}, "x"]
  }
  node n({ a, k }) -> { a } = f
  START -> n -> {
    a == ${lit} => END
    k in [${lit}, "other"] => n
    _ => END
  }
  n -> route(f) { ${lit}: END, other: n }
}
`;
}

/** every string literal value in a TypeScript source, and its syntax errors */
function parseStrings(text: string): { strings: string[]; errors: string[] } {
  const strings = stringsIn(sourceFile(text));
  const errors = ts
    .transpileModule(text, { reportDiagnostics: true, compilerOptions: { target: ts.ScriptTarget.ES2022 } })
    .diagnostics!.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  return { strings, errors };
}

const sourceFile = (text: string) => ts.createSourceFile("out.ts", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);

function stringsIn(root: ts.Node): string[] {
  const strings: string[] = [];
  const walk = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) strings.push(node.text);
    node.forEachChild(walk);
  };
  walk(root);
  return strings;
}

/** the generated `vars` member (`const GSpecVars: … = (o, inherited, env) => …`), where the vars defaults are built */
function varsFunction(text: string): ts.Node {
  let found: ts.Node | undefined;
  const walk = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText().endsWith("SpecVars")) found ??= node.initializer;
    node.forEachChild(walk);
  };
  walk(sourceFile(text));
  if (found === undefined) throw new Error("no `…SpecVars` in the generated code");
  return found;
}

async function emit(text: string) {
  const result = await compile(["g.graph"], { host: memoryHost({ "g.graph": text }), typecheck: false });
  return { result, out: result.files[0]?.text ?? "" };
}

describe("injection safety", () => {
  for (const payload of PAYLOADS) {
    it(`emits ${JSON.stringify(payload)} as string literals with that exact value`, async () => {
      const { result, out } = await emit(source(payload));
      expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      const { strings, errors } = parseStrings(out);
      expect(errors).toEqual([]);
      const count = strings.filter((s) => s === payload).length;
      // import path, literal type, state default, default of the literal-typed field, list item, condition,
      // `in` option, route case key, var default
      expect(count).toBeGreaterThanOrEqual(9);
      // the vars default on its own: one literal holding the payload, `${…}` included, and no env lookup
      const varsFn = varsFunction(out);
      expect(stringsIn(varsFn)).toContain(payload);
      expect(varsFn.getText()).not.toMatch(/env\[/);
      expect(out).not.toContain("COMMENT-MARKER");
    });
  }
});

describe("environment values", () => {
  const NAME = "GRAPHC_INJECTION_SECRET";
  process.env[NAME] = "s3cr3t-value-never-in-output";
  afterAll(() => {
    delete process.env[NAME];
  });

  it("are read when the graph runs, never written into generated code", async () => {
    const { result, out } = await emit(`import { f } from "./f.ts"
graph G {
  vars { key: string = "\${${NAME}}", model: string = "\${${NAME}:-fallback}" }
  state { a: string = "" }
  node n({ a }) -> { a } = f
  START -> n -> END
}
`);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(out).not.toContain("s3cr3t");
    expect(out).toContain(`env["${NAME}"]`);
    expect(out).toContain(`"fallback"`);
  });
});

describe("names", () => {
  it("rejects a graph, type or import name that cannot be a binding in the generated module", async () => {
    const { result } = await emit(`import { f as await } from "./f.ts"
type class = string
graph delete {
  state { a: class = "" }
  node n({ a }) -> { a } = await
  START -> n -> END
}
`);
    const codes = result.diagnostics.map((d) => `${d.code}:${d.span.start.line}`);
    expect(codes).toContain("G3090:1");
    expect(codes).toContain("G3090:2");
    expect(codes).toContain("G3091:3");
  });

  it("imports user functions named like the generated code's parameters under an alias", async () => {
    const { result, out } = await emit(`import { input, key, v } from "./f.ts"
graph G {
  state { a: string = "" reduce v }
  node n({ a }) -> { a } = input
  START -> n -> route(key) { x: END }
}
`);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(out).toContain('import { input as input_2, key as key_2, v as v_2 } from "./f.ts";');
    expect(out).toContain("const fn: GNBranch = key_2;");
    expect(out).toContain("const fn: GNFn = input_2;");
    expect(out).toContain(`v["a"] = foldSet("G", "a", v["a"], w_a, v_2)`);
    expect(parseStrings(out).errors).toEqual([]);
  });

  it("keeps names that are JavaScript keywords where they are only keys or strings", async () => {
    const { result, out } = await emit(`import { f } from "./f.ts"
graph G {
  state { default: string = "", new: string[] = [] reduce append }
  node class({ default }) -> { new } = f
  START -> class -> END
}
`);
    expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(parseStrings(out).errors).toEqual([]);
    expect(out).toContain('name: "class"');
  });
});
