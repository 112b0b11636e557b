/**
 * The names of the top-level graphs a `.graph` file declares, read from its text: enough for the "Show
 * graph" command to ask which one to draw before the server is asked. A formatted file starts each
 * declaration on its own line (`graph Name {`); inline subgraphs (`= graph {`) have no name and are skipped.
 */
export function graphNames(text: string): string[] {
  const withoutComments = text.replace(/\/\*[^]*?\*\//g, "").replace(/\/\/[^\n]*/g, "");
  return [...withoutComments.matchAll(/^[ \t]*graph[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]*\{/gm)].map((m) => m[1]!);
}
