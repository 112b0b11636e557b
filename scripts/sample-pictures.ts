/**
 * The samples' pictures: every graph declared in samples/<sample>/*.graph drawn as `graphc graph --svg`
 * draws it, to samples/<sample>/<Graph>.svg — the images the samples' READMEs show.
 * `npx tsx scripts/sample-pictures.ts` rewrites them (only those that changed);
 * test/draw/sample-pictures.test.ts fails when a committed picture is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { check, drawingOf, drawSvg, hasErrors, lower, nodeHost } from "graphc";
import { sampleGraphFiles } from "../samples/build.ts";
import { isMain } from "../samples/shared/is-main.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

export interface Picture {
  /** repository-relative path of the .svg file */
  readonly path: string;
  readonly graph: string;
  /** the ids of the drawing's nodes (each is an SVG node `<title>`) */
  readonly nodes: string[];
  readonly svg: string;
}

export async function samplePictures(): Promise<Picture[]> {
  const files = sampleGraphFiles().map((f) => join(process.cwd(), f));
  const checked = check(files, nodeHost());
  if (checked.program === undefined || hasErrors(checked.diagnostics)) throw new Error("the samples have errors: run npx tsx samples/build.ts");
  const lowered = lower(checked.program);
  if (hasErrors(lowered.diagnostics)) throw new Error("the samples do not lower");
  const out: Picture[] = [];
  for (const file of lowered.value.files) {
    for (const g of file.graphs) {
      if (g.inline) continue;
      const path = relative(ROOT, join(dirname(file.file), `${g.name}.svg`)).replaceAll("\\", "/");
      const nodes = drawingOf(lowered.value, g).nodes.map((n) => n.id);
      out.push({ path, graph: g.name, nodes, svg: await drawSvg(lowered.value, g) });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

function readOrNone(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

if (isMain(import.meta.url)) {
  let changed = 0;
  const pictures = await samplePictures();
  for (const p of pictures) {
    const abs = join(ROOT, p.path);
    if (readOrNone(abs) === p.svg) continue;
    writeFileSync(abs, p.svg);
    changed++;
  }
  console.log(`${pictures.length} sample pictures, ${changed} rewritten`);
}
