import { z } from 'zod';
import { Timestamp } from '../wire.js';

/**
 * An LMS registered as an LTI 1.3 platform (decisions §21). One record is one registration: the
 * platform's issuer, the client id it gave the judge and the deployment id of the installation.
 */
export const LtiPlatform = z.object({
  id: z.string(),
  displayName: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  deploymentId: z.string(),
  keySetUrl: z.string(),
  authTokenUrl: z.string(),
  authLoginUrl: z.string(),
  isIdentityAuthority: z.boolean().meta({ description: 'The platform makes accounts for the people it launches (logins start with identityNamespace); otherwise it signs in only accounts already linked to it' }),
  identityNamespace: z.string().optional().meta({ description: 'The prefix of the logins an identity authority makes: NAMESPACE-name' }),
  usernameClaim: z.string().meta({ description: 'The ID token claim a new login is made from (email: its local part); sub when the claim is missing' }),
  enabled: z.boolean(),
  providerId: z.string().optional().meta({ description: 'Never set by this judge: LTI accounts are linked to the platform itself, not to an identity provider' }),
  createdAt: Timestamp,
});
export type LtiPlatform = z.infer<typeof LtiPlatform>;

/** https, or http on this machine (trying a platform out): checked by the server (lti.platform.url.insecure). */
const PlatformUrl = z.url({ protocol: /^https?$/ }).max(500);

/** A namespace: lowercase letters, digits and dashes, 2 to 32, as a login's start. */
export const IdentityNamespace = z.string().regex(/^[a-z0-9][a-z0-9-]{0,30}[a-z0-9]$/, 'lowercase letters, digits and dashes, 2 to 32, not starting or ending with a dash');

/** What an administrator sends to create or replace a platform; the interface's seven strings, the rest optional. */
export const LtiPlatformRequest = z.object({
  displayName: z.string().trim().min(1).max(128),
  issuer: PlatformUrl.meta({ description: "Exactly as the platform's ID tokens say it in iss" }),
  clientId: z.string().trim().min(1).max(256),
  deploymentId: z.string().trim().min(1).max(256),
  keySetUrl: PlatformUrl.meta({ description: "The platform's public keys (JWKS)" }),
  authTokenUrl: PlatformUrl.meta({ description: "The platform's OAuth 2 token endpoint (scores are sent with its tokens)" }),
  authLoginUrl: PlatformUrl.meta({ description: "The platform's OIDC authorization endpoint" }),
  isIdentityAuthority: z.boolean().optional(),
  identityNamespace: IdentityNamespace.optional(),
  usernameClaim: z
    .string()
    .trim()
    .max(200)
    .regex(/^[A-Za-z0-9_:/.#-]+$/, 'one claim name of the ID token, e.g. email, preferred_username or sub')
    .optional()
    .meta({ description: "Default 'email'" }),
  enabled: z.boolean().optional(),
});

/** What to enter in the LMS when registering the judge there (decisions §21). */
export const LtiRegistration = z.object({
  toolUrl: z.string(),
  loginUrl: z.string().meta({ description: 'OIDC login initiation URL' }),
  redirectUri: z.string().meta({ description: 'The launch (redirection) URI' }),
  keySetUrl: z.string().meta({ description: "The judge's public keys (JWKS)" }),
  customParameters: z.array(z.string()).meta({ description: 'Custom parameters a link sets: activity=SLUG names the activity (required), problem=SLUG one of its problems' }),
});
export type LtiRegistration = z.infer<typeof LtiRegistration>;

/** The judge's public keys, as platforms read them. */
export const LtiKeySet = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/** After a rotation: the key that signs from now on, and those still published. */
export const LtiKeyRotation = z.object({
  kid: z.string(),
  createdAt: Timestamp,
  published: z.array(z.object({ kid: z.string(), retiredAt: Timestamp.optional() })),
});
export type LtiKeyRotation = z.infer<typeof LtiKeyRotation>;

/** Links an account to a platform that is not an identity authority: the platform's sub for it. */
export const LtiLinkRequest = z.object({
  subject: z.string().trim().min(1).max(255),
  userId: z.string().min(1).max(64),
});
