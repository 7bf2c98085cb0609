/** A CLICS failure: the status and a JSON body `{code, message}` (Contest_API.md, "Success, Failure, and HTTP Responses"). */
export class ClicsError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const clicsNotFound = (what: string): ClicsError => new ClicsError(404, `No such ${what}`);
