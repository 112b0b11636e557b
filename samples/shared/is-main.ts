import { pathToFileURL } from "node:url";

/** true when this module is the script node/tsx was started with (samples are both scripts and modules) */
export function isMain(moduleUrl: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(script).href === moduleUrl;
}
