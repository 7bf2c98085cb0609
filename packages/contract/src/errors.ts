/**
 * The stable error codes clients switch on (CONTRACT §3), with the status each answers.
 * A code is listed once here so that the server, the SDK and the documentation agree.
 */
export const ERROR_CODES = {
  'request.malformed': 400,
  unauthenticated: 401,
  forbidden: 403,
  'csrf.origin': 403,
  'registration.closed': 403,
  'account.notApproved': 403,
  'grant.excess': 403,
  'grant.override.administrator': 403,
  'runner.notApproved': 403,
  'enrolment.closed': 403,
  'enrolment.password': 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  'user.username.taken': 409,
  'user.email.taken': 409,
  'role.name.taken': 409,
  'role.builtIn': 409,
  'role.inUse': 409,
  'user.self': 409,
  'problem.slug.taken': 409,
  'problem.slug.exhausted': 409,
  'problem.archived': 409,
  'problem.attached': 409,
  'version.file.duplicate': 409,
  'activity.slug.taken': 409,
  'activity.slug.immutable': 409,
  'activity.archived': 409,
  'activity.hasSubmissions': 409,
  'series.slug.taken': 409,
  'series.hasSubmissions': 409,
  'series.alreadyPaused': 409,
  'series.notPaused': 409,
  'assignment.slug.taken': 409,
  'assignment.hasSubmissions': 409,
  payload_too_large: 413,
  'range.unsatisfiable': 416,
  unsupported_media_type: 415,
  validation_failed: 422,
  checksum_mismatch: 422,
  'file.required': 422,
  'account.password.wrong': 422,
  'grant.permission.unknown': 422,
  'role.activity.mismatch': 422,
  'problem.type.immutable': 422,
  'file.missing': 422,
  'package.invalid': 422,
  'version.statements.empty': 422,
  'version.file.isStatement': 422,
  'version.file.isPackage': 422,
  'version.foreign': 422,
  'order.foreign': 422,
  rate_limited: 429,
  'server.maintenance': 503,
  internal: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Login refusals carry one of these in `detail` (CONTRACT §4). */
export const LOGIN_FAILURES = ['Failed', 'LockedOut', 'NotAllowed', 'RequiresTwoFactor'] as const;
export type LoginFailure = (typeof LOGIN_FAILURES)[number];

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusTitle(status: number): string {
  return TITLES[status] ?? 'Error';
}
