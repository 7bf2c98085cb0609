import { ERROR_CODES, type ErrorCode } from '@judge/contract';

/** The one error type services and routes throw; the problem middleware turns it into problem+json. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Record<string, string[]> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, code: string, detail: string, errors?: Record<string, string[]>, headers?: Record<string, string>) {
    super(detail);
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.headers = headers;
  }

  /** An error whose status comes from the catalogue of codes. */
  static of(code: ErrorCode, detail: string, errors?: Record<string, string[]>): ApiError {
    return new ApiError(ERROR_CODES[code], code, detail, errors);
  }
}

export const notFound = (what = 'resource'): ApiError => ApiError.of('not_found', `The ${what} does not exist or is not visible to you`);
export const forbidden = (permission: string): ApiError => ApiError.of('forbidden', `This needs the permission ${permission}`);
export const unauthenticated = (detail = 'Sign in first'): ApiError => ApiError.of('unauthenticated', detail);
export const validation = (field: string, message: string): ApiError =>
  ApiError.of('validation_failed', `${field}: ${message}`, { [field]: [message] });
