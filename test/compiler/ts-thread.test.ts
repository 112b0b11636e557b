/**
 * A one-shot `graphc build` with an empty format cache runs the TypeScript pass on a worker thread
 * (ts-thread.ts) and formats meanwhile, on the final text as guessed from the user's modules
 * (sync-guess.ts): the same outputs and diagnostics as the pass in this thread, with TypeScript errors and
 * without; and on the customer-service sample the guess is TypeScript's answer for every function.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { compile } from "../../compiler/index.ts";
import { withSync } from "../../compiler/phases/4-lower/index.ts";
import { guessSync } from "../../compiler/phases/5-emit/sync-guess.ts";
import { TypecheckThread } from "../../compiler/phases/5-emit/ts-thread.ts";
import { tempDir } from "../temp-dir.ts";

const tmp = tempDir("ts-thread");
afterAll(() => tmp.remove());

const SAMPLE = ["customer_service", "reception", "query", "decision", "execution", "domain"];

/** a project folder with its own node_modules (where the format cache lives: empty) */
function project(name: string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  return dir;
}

function sample(): string[] {
  const dir = project("sample");
  for (const d of ["customer-service", "shared"]) cpSync(join("samples", d), join(dir, "samples", d), { recursive: true });
  return SAMPLE.map((f) => join(dir, "samples", "customer-service", `${f}.graph`));
}

/** emit-typecheck.test.ts's shape: a node function with the wrong signature, a router returning an unknown key */
function wrong(): string[] {
  const dir = project("wrong");
  writeFileSync(
    join(dir, "wrong.graph"),
    `import { good, bad, pick } from "./wrong.nodes.ts"\n\ngraph Wrong {\n  state { a: string, b: number = 0, c: string = "" }\n  node good({ a }) -> { b } = good\n  node bad({ a }) -> { b } = bad\n  START -> good -> bad -> route(pick) { x: END }\n}\n`,
  );
  writeFileSync(
    join(dir, "wrong.nodes.ts"),
    `export function good(s: { a: string }) { return { b: s.a.length }; }\nexport function bad(s: { a: string; c: string }) { return { b: s.c }; }\nexport function pick(): "y" { return "y"; }\n`,
  );
  return [join(dir, "wrong.graph")];
}

describe("the TypeScript pass on a thread (one-shot build, empty format cache)", () => {
  it.each([
    ["the customer-service sample", sample, 0],
    ["a graph with TypeScript errors", wrong, 2],
  ])("gives %s the outputs and diagnostics of the pass in this thread", async (_, files, errors) => {
    const entry = files();
    const cwd = join(entry[0]!, "..");
    const spy = vi.spyOn(TypecheckThread.prototype, "typecheck");
    const threaded = await compile(entry, { cwd, formatCache: true, typecheckThread: true });
    expect(threaded.diagnostics.filter((d) => d.code === "G9001")).toEqual([]);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
    const inline = await compile(entry, { cwd });
    expect(threaded.diagnostics.filter((d) => d.severity === "error")).toHaveLength(errors);
    expect(threaded.diagnostics).toEqual(inline.diagnostics);
    expect(threaded.files.map((f) => [f.path, f.text])).toEqual(inline.files.map((f) => [f.path, f.text]));
  }, 120_000);

  it("is not used with a warm cache, for --watch (typecheckThread unset) or without the type check", async () => {
    const entry = wrong();
    const cwd = join(entry[0]!, "..");
    const spy = vi.spyOn(TypecheckThread.prototype, "typecheck");
    await compile(entry, { cwd, formatCache: true }); // fills the cache of this process
    await compile(entry, { cwd, formatCache: true, typecheckThread: true, typecheck: false });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  }, 120_000);

  it("guesses TypeScript's `isSync` answer for every function of the sample", async () => {
    const entry = sample();
    const { ir } = await compile(entry, { cwd: join(entry[0]!, "..") });
    const answers: [string, boolean, boolean][] = [];
    withSync(ir!, (fn, file) => {
      answers.push([fn.exported, guessSync(fn, file), (fn as { sync?: boolean }).sync === true]);
      return false;
    });
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter(([, guess]) => guess).length).toBeGreaterThan(5);
    expect(answers.filter(([, guess, answer]) => guess !== answer)).toEqual([]);
  }, 120_000);
});
