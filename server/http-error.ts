/**
 * Every error answer of the server is JSON: `{ error, message }` (and `field` for a 422 on one field). A
 * handler throws `HttpError`; api.ts turns it, and anything else thrown, into the response.
 */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409 | 413 | 422 | 500 | 501,
    readonly error: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "HttpError";
  }

  body(): { error: string; message: string; field?: string } {
    return this.field === undefined ? { error: this.error, message: this.message } : { error: this.error, message: this.message, field: this.field };
  }
}

export const notFound = (what: string, id: string) => new HttpError(404, "NotFound", `${what} ${id} not found`);

export const notImplemented = (what: string) =>
  new HttpError(501, "NotImplemented", `${what} is not implemented by graphc's server (see docs/server.md for the endpoints it implements)`);

export const invalid = (field: string, message: string) => new HttpError(422, "ValidationError", `${field} ${message}`, field);
