/**
 * The auth hook: a function that checks a request's bearer token and names its owner. Threads and runs
 * carry the owner of the request that created them; a request sees only its owner's threads (another
 * owner's thread answers 404, as if it did not exist). Without a hook every request is the owner `null`.
 */
import { HttpError } from "./http-error.ts";

/**
 * Returns the identity (any string: a user id, a tenant) of the token's owner, or `null` to refuse
 * (401). `token` is the `Authorization: Bearer …` value, else the `x-api-key` header (what the SDK's
 * `apiKey` sends), `undefined` when the request has neither.
 */
export type AuthHook = (token: string | undefined, request: Request) => string | null | Promise<string | null>;

export function tokenOf(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  const bearer = header?.match(/^Bearer\s+(.+)$/i)?.[1];
  return bearer ?? request.headers.get("x-api-key") ?? undefined;
}

export async function ownerOf(hook: AuthHook | undefined, request: Request): Promise<string | null> {
  if (!hook) return null;
  const owner = await hook(tokenOf(request), request);
  if (owner === null || owner === undefined) throw new HttpError(401, "Unauthorized", "missing or invalid bearer token");
  return owner;
}

/**
 * A hook from a fixed table `token → owner` (what `graphc serve --tokens FILE` reads: one `token owner`
 * pair per line, `#` comments).
 */
export function tokenTable(table: Readonly<Record<string, string>>): AuthHook {
  const tokens = new Map(Object.entries(table));
  return (token) => (token === undefined ? null : (tokens.get(token) ?? null));
}

export function parseTokenFile(text: string): Record<string, string> {
  const table: Record<string, string> = {};
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") continue;
    const [token, owner, ...rest] = line.split(/\s+/);
    if (!token || !owner || rest.length > 0) throw new Error(`tokens file line ${i + 1}: expected "<token> <owner>"`);
    table[token] = owner;
  }
  return table;
}
