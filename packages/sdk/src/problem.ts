import type { ProblemDocument } from '@judge/contract';

/** A failure the server answered with a problem document; `code` is what callers switch on. */
export class ApiProblem extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly errors: Record<string, string[]> | undefined;
  readonly traceId: string | undefined;
  readonly retryAfter: number | undefined;
  /** The problem document as the server sent it, for callers that pass it on whole. */
  readonly document: Partial<ProblemDocument>;

  constructor(status: number, doc: Partial<ProblemDocument>, retryAfter?: number) {
    super(`${status} ${doc.code ?? 'error'}: ${doc.detail ?? doc.title ?? 'request failed'}`);
    this.name = 'ApiProblem';
    this.status = status;
    this.code = doc.code ?? 'error';
    this.detail = doc.detail ?? doc.title ?? '';
    this.errors = doc.errors;
    this.traceId = doc.traceId;
    this.retryAfter = retryAfter;
    this.document = doc;
  }
}

/** The server could not be reached at all (wrong URL, down, refused). */
export class Unreachable extends Error {
  constructor(
    readonly baseUrl: string,
    cause: unknown,
  ) {
    super(`cannot reach the judge at ${baseUrl}: ${(cause as Error)?.message ?? String(cause)}`);
    this.name = 'Unreachable';
  }
}
