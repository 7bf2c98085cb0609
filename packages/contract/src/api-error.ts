import { ERROR_CODES, type ErrorCode } from './errors.js';

/**
 * The one error type the server throws; its problem middleware turns it into problem+json. The
 * status comes from the catalogue of codes, so a code always answers the status clients expect.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    detail: string,
    readonly errors?: Record<string, string[]>,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.status = ERROR_CODES[code];
  }

  static of(code: ErrorCode, detail: string, errors?: Record<string, string[]>, headers?: Record<string, string>): ApiError {
    return new ApiError(code, detail, errors, headers);
  }
}

export const notFound = (what = 'resource'): ApiError => ApiError.of('not_found', `The ${what} does not exist or is not visible to you`);
export const forbidden = (permission: string): ApiError => ApiError.of('forbidden', `This needs the permission ${permission}`);
export const unauthenticated = (detail = 'Sign in first'): ApiError => ApiError.of('unauthenticated', detail);
export const validation = (field: string, message: string): ApiError =>
  ApiError.of('validation_failed', `${field}: ${message}`, { [field]: [message] });
