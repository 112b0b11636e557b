/**
 * Just enough globbing for command-line arguments (Node 20 has no fs.glob): `*`, `?`, `**`, `[abc]` and
 * `{a,b}`, matched against posix paths relative to the working directory. Directories named
 * `node_modules` or starting with `.` are never entered by a walk.
 */
import { readdirSync } from "node:fs";
import { posix } from "node:path";

export function isGlob(arg: string): boolean {
  return /[*?[\]{}]/.test(arg);
}

/** Compiles a glob to an anchored RegExp over posix paths. */
export function globToRegExp(glob: string): RegExp {
  let re = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        // `**/` matches any number of directories (including none); a trailing `**` matches everything
        const slash = glob[i + 2] === "/";
        re += slash ? "(?:[^/]*(?:/|$))*" : ".*";
        i += slash ? 2 : 1;
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 1);
      if (close < 0) re += "\\[";
      else {
        const body = glob.slice(i + 1, close).replace(/^!/, "^").replace(/\\/g, "\\\\");
        re += `[${body}]`;
        i = close;
      }
    } else if (c === "{") {
      braces++;
      re += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      re += ")";
    } else if (c === "," && braces > 0) re += "|";
    else re += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

/** The directory part of a glob before its first wildcard segment (where the walk starts). */
export function globBase(glob: string): string {
  const segs = glob.split("/");
  const i = segs.findIndex(isGlob);
  return segs.slice(0, i < 0 ? segs.length : i).join("/") || ".";
}

/** Every file under `dir` (posix path relative to `root`), skipping node_modules and dot-directories. */
export function walk(root: string, dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    let entries;
    try {
      entries = readdirSync(posix.resolve(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const path = rel === "." ? e.name : posix.join(rel, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && !e.name.startsWith(".")) visit(path);
      } else if (e.isFile()) out.push(path);
    }
  };
  visit(dir);
  return out;
}
