import { LtiPlatformRequest, type LtiPlatform } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { draftOf, EMPTY_PLATFORM, requestOf } from './draft';

const saved: LtiPlatform = {
  id: 'l1',
  displayName: 'School Moodle',
  issuer: 'https://moodle.school.example',
  clientId: 'abc',
  deploymentId: '1',
  keySetUrl: 'https://moodle.school.example/mod/lti/certs.php',
  authTokenUrl: 'https://moodle.school.example/mod/lti/token.php',
  authLoginUrl: 'https://moodle.school.example/mod/lti/auth.php',
  isIdentityAuthority: true,
  identityNamespace: 'moodle',
  usernameClaim: 'email',
  enabled: false,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('the LTI platform form', () => {
  it('sends a saved platform back unchanged', () => {
    const body = requestOf(draftOf(saved));
    const { id: _id, createdAt: _at, ...members } = saved;
    expect(body).toEqual(members);
    expect(LtiPlatformRequest.safeParse(body).success).toBe(true);
  });

  it('trims what is typed and leaves an empty namespace or claim to the server', () => {
    const body = requestOf({ ...EMPTY_PLATFORM, displayName: ' Canvas ', issuer: 'https://canvas.instructure.com ', clientId: '1', deploymentId: '2', keySetUrl: 'https://c/jwks', authTokenUrl: 'https://c/token', authLoginUrl: 'https://c/auth', usernameClaim: ' ' });
    expect(body).toMatchObject({ displayName: 'Canvas', issuer: 'https://canvas.instructure.com', isIdentityAuthority: false, enabled: true });
    expect('identityNamespace' in body).toBe(false);
    expect('usernameClaim' in body).toBe(false);
    expect(LtiPlatformRequest.safeParse(body).success).toBe(true);
  });
});
