import type { JWTPayload } from 'jose';
import { secureUrl, type PlatformRow } from './platforms.js';

/** The LTI 1.3 claims the judge reads (IMS LTI Core 1.3, Assignment and Grade Services 2.0). */
export const CLAIM = {
  messageType: 'https://purl.imsglobal.org/spec/lti/claim/message_type',
  version: 'https://purl.imsglobal.org/spec/lti/claim/version',
  deployment: 'https://purl.imsglobal.org/spec/lti/claim/deployment_id',
  resourceLink: 'https://purl.imsglobal.org/spec/lti/claim/resource_link',
  context: 'https://purl.imsglobal.org/spec/lti/claim/context',
  roles: 'https://purl.imsglobal.org/spec/lti/claim/roles',
  custom: 'https://purl.imsglobal.org/spec/lti/claim/custom',
  ags: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
} as const;

export const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

/**
 * Why a login or launch was refused: the code is all the browser is told (decisions §21). 400 for
 * what does not verify, 403 for what the judge refuses to someone it knows.
 */
export type RefusalCode =
  | 'lti.login.unknown'
  | 'lti.launch.state'
  | 'lti.launch.token'
  | 'lti.launch.nonce'
  | 'lti.launch.deployment'
  | 'lti.launch.message'
  | 'lti.launch.subject'
  | 'lti.platform.disabled'
  | 'lti.launch.unlinked'
  | 'lti.launch.activity'
  | 'lti.launch.placement'
  | 'lti.launch.account'
  | 'lti.continue.ticket'
  | 'maintenance';

const FORBIDDEN: ReadonlySet<RefusalCode> = new Set(['lti.platform.disabled', 'lti.launch.unlinked', 'lti.launch.placement', 'lti.launch.account']);

export class LtiRefusal extends Error {
  readonly status: number;
  constructor(
    readonly code: RefusalCode,
    message: string,
    /** What the page may show besides the code: the platform and the user's sub, for an unlinked user to pass on. */
    readonly unlinked?: { platform: string; subject: string },
  ) {
    super(message);
    this.status = code === 'maintenance' ? 503 : FORBIDDEN.has(code) ? 403 : 400;
  }
}

/** A launch whose ID token verified: what the judge acts on. */
export interface Launch {
  platform: PlatformRow;
  sub: string;
  claims: JWTPayload;
  resourceLinkId: string;
  /** '' when the launch names no context (course). */
  contextId: string;
  /** Taught or administers the course: manager of the activity. */
  staff: boolean;
  activitySlug?: string | undefined;
  problemSlug?: string | undefined;
  /** Where the learner's score goes, when the platform offers score passback for this link. */
  lineItem?: string | undefined;
}

const STAFF_ROLES = new Set(['Instructor', 'Administrator', 'ContentDeveloper']);
const MEMBERSHIP = /^http:\/\/purl\.imsglobal\.org\/vocab\/lis\/v2\/membership(\/Instructor)?#(\w+)$/;

/** Whether the roles claim names a teaching role in the context: Instructor (and its sub-roles), Administrator, ContentDeveloper. */
export function isStaff(roles: unknown): boolean {
  const list = Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  return list.some((r) => {
    const m = MEMBERSHIP.exec(r);
    // short names: LTI 1.1's, which some 1.3 platforms still send
    return m ? m[1] === '/Instructor' || STAFF_ROLES.has(m[2]!) : STAFF_ROLES.has(r);
  });
}

const text = (v: unknown, max = 255): string | undefined => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : undefined);
const member = (o: unknown, k: string): unknown => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined);

/** The line item scores go to: only with the score scope, and only over https (or http on this machine). */
function lineItemOf(ags: unknown): string | undefined {
  const url = text(member(ags, 'lineitem'), 2000);
  const scope = member(ags, 'scope');
  return url && Array.isArray(scope) && scope.includes(SCORE_SCOPE) && secureUrl(url) ? url : undefined;
}

/** The launch's meaning once its token verified; refused when it is no resource link launch of LTI 1.3. */
export function readLaunch(platform: PlatformRow, claims: JWTPayload): Launch {
  const resourceLinkId = text(member(claims[CLAIM.resourceLink], 'id'));
  if (claims[CLAIM.messageType] !== 'LtiResourceLinkRequest' || claims[CLAIM.version] !== '1.3.0' || !resourceLinkId) {
    throw new LtiRefusal('lti.launch.message', 'Only resource link launches of LTI 1.3.0 open the judge');
  }
  const sub = text(claims.sub);
  if (!sub) throw new LtiRefusal('lti.launch.subject', 'The platform launched without saying who (anonymous launch)');
  const custom = claims[CLAIM.custom];
  return {
    platform,
    sub,
    claims,
    resourceLinkId,
    contextId: text(member(claims[CLAIM.context], 'id')) ?? '',
    staff: isStaff(claims[CLAIM.roles]),
    activitySlug: text(member(custom, 'activity'), 64),
    problemSlug: text(member(custom, 'problem'), 64),
    lineItem: lineItemOf(claims[CLAIM.ags]),
  };
}
