/**
 * The one native TypeScript 7 process of a graphc process (`typescript/unstable/sync`, started on first
 * use, ended by Node at exit). Its file system is the disk, except what a client serves from memory
 * (ts-native.ts: each project's tsconfig and drafts); clients are asked in turn.
 *
 * Unavailable (undefined) when the platform's binary is not installed (the `typescript` package ships it
 * as an optional dependency per platform) or when `GRAPHC_TYPESCRIPT=js` asks for the JavaScript
 * TypeScript pass (ts-check.ts) instead.
 */
import { API } from "typescript/unstable/sync";

export interface NativeFiles {
  /** the text, or undefined to read the disk */
  readFile(path: string): string | undefined;
  /** true for a file served from memory, else undefined to ask the disk */
  fileExists(path: string): true | undefined;
  /**
   * true for a folder holding a file served from memory, else undefined to ask the disk: a draft's folder
   * (`--out gen`) need not exist yet, and module resolution looks for a folder before its files
   */
  directoryExists(path: string): true | undefined;
}

const clients = new Set<NativeFiles>();
let api: API | null | undefined;

export function nativeApi(): API | undefined {
  if (api === undefined) api = process.env["GRAPHC_TYPESCRIPT"] === "js" ? null : start();
  return api ?? undefined;
}

export function serveFiles(files: NativeFiles): void {
  clients.add(files);
}

function start(): API | null {
  try {
    return new API({
      fs: {
        readFile: (path) => first((c) => c.readFile(path)),
        fileExists: (path) => first((c) => c.fileExists(path)),
        directoryExists: (path) => first((c) => c.directoryExists(path)),
      },
    });
  } catch {
    // no binary for this platform: the JavaScript pass
    return null;
  }
}

function first<T>(ask: (c: NativeFiles) => T | undefined): T | undefined {
  for (const c of clients) {
    const answer = ask(c);
    if (answer !== undefined) return answer;
  }
  return undefined;
}
