import type { LtiPlatform, OperationInput } from '@judge/contract';
import type { ops } from '@judge/sdk/browser';

export type PlatformBody = OperationInput<typeof ops.createLtiPlatform>['body'];

/** The platform form as typed: text as the fields hold it, so a refused value stays as it was typed. */
export interface PlatformDraft {
  displayName: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  keySetUrl: string;
  authTokenUrl: string;
  authLoginUrl: string;
  isIdentityAuthority: boolean;
  identityNamespace: string;
  usernameClaim: string;
  enabled: boolean;
}

export const EMPTY_PLATFORM: PlatformDraft = {
  displayName: '',
  issuer: '',
  clientId: '',
  deploymentId: '',
  keySetUrl: '',
  authTokenUrl: '',
  authLoginUrl: '',
  isIdentityAuthority: false,
  identityNamespace: '',
  usernameClaim: 'email',
  enabled: true,
};

export function draftOf(p: LtiPlatform): PlatformDraft {
  return {
    displayName: p.displayName,
    issuer: p.issuer,
    clientId: p.clientId,
    deploymentId: p.deploymentId,
    keySetUrl: p.keySetUrl,
    authTokenUrl: p.authTokenUrl,
    authLoginUrl: p.authLoginUrl,
    isIdentityAuthority: p.isIdentityAuthority,
    identityNamespace: p.identityNamespace ?? '',
    usernameClaim: p.usernameClaim,
    enabled: p.enabled,
  };
}

/** The request for a draft: PUT replaces the platform, so every member is sent (empty optional ones left out take their defaults). */
export function requestOf(d: PlatformDraft): PlatformBody {
  return {
    displayName: d.displayName.trim(),
    issuer: d.issuer.trim(),
    clientId: d.clientId.trim(),
    deploymentId: d.deploymentId.trim(),
    keySetUrl: d.keySetUrl.trim(),
    authTokenUrl: d.authTokenUrl.trim(),
    authLoginUrl: d.authLoginUrl.trim(),
    isIdentityAuthority: d.isIdentityAuthority,
    ...(d.identityNamespace.trim() ? { identityNamespace: d.identityNamespace.trim() } : {}),
    ...(d.usernameClaim.trim() ? { usernameClaim: d.usernameClaim.trim() } : {}),
    enabled: d.enabled,
  };
}
