import { IdentityProviderRequest, type IdentityProvider } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { callbackUrl, draftOf, EMPTY_PROVIDER, mappable, requestOf, secretOf } from './draft';

const saved: IdentityProvider = {
  id: 'p1',
  slug: 'school',
  displayName: 'School accounts',
  issuer: 'https://login.school.example',
  clientId: 'judge',
  scopes: 'openid profile email',
  enabled: true,
  accountUrl: 'https://login.school.example/account',
  claimPath: 'groups',
  unmappedBehavior: 'defaultTemplate',
  defaultTemplateName: 'Pupil',
  deletionChannelEnabled: false,
  hasClientSecret: true,
  hasDeletionSecret: false,
  callbackPath: '/api/v1/identity/providers/school/callback',
  mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }],
  linkedAccounts: 3,
  createdAt: '2025-01-01T00:00:00.000Z',
};

describe('the provider form', () => {
  it('sends a saved provider back unchanged, its secrets absent so that they are kept', () => {
    const body = requestOf(draftOf(saved));
    expect(body).toEqual({
      slug: 'school',
      displayName: 'School accounts',
      issuer: 'https://login.school.example',
      clientId: 'judge',
      scopes: 'openid profile email',
      enabled: true,
      claimPath: 'groups',
      mappingRules: [{ claimValue: 'teachers', templateName: 'Teacher' }],
      unmappedBehavior: 'defaultTemplate',
      defaultTemplateName: 'Pupil',
      accountUrl: 'https://login.school.example/account',
      deletionChannelEnabled: false,
    });
    expect('clientSecret' in body).toBe(false);
    expect('deletionSecret' in body).toBe(false);
    expect(IdentityProviderRequest.safeParse(body).success).toBe(true);
  });

  it('replaces a secret with what is typed, removes it with an empty string, and keeps it when left empty', () => {
    expect(secretOf({ value: 's3cret', remove: false })).toBe('s3cret');
    expect(secretOf({ value: '', remove: true })).toBe('');
    expect(secretOf({ value: '', remove: false })).toBeUndefined();
    const d = draftOf(saved);
    expect(requestOf({ ...d, clientSecret: { value: '', remove: true }, deletionSecret: { value: 'del', remove: false } })).toMatchObject({ clientSecret: '', deletionSecret: 'del' });
  });

  it('leaves out empty rows, trims what is typed, and sends no default role while accounts are refused', () => {
    const body = requestOf({
      ...EMPTY_PROVIDER,
      slug: ' lab ',
      displayName: ' Lab ',
      issuer: 'https://id.example ',
      clientId: 'c',
      defaultTemplateName: 'Pupil',
      mappingRules: [
        { key: 1, claimValue: ' staff ', templateName: 'Teacher' },
        { key: 2, claimValue: '', templateName: '' },
      ],
    });
    expect(body).toMatchObject({ slug: 'lab', displayName: 'Lab', issuer: 'https://id.example', unmappedBehavior: 'deny', mappingRules: [{ claimValue: 'staff', templateName: 'Teacher' }] });
    expect('defaultTemplateName' in body).toBe(false);
    expect('claimPath' in body).toBe(false);
    expect(IdentityProviderRequest.safeParse(body).success).toBe(true);
  });

  it('names the callback URL a provider will have, as the server makes it', () => {
    expect(callbackUrl('school', 'https://judge.example')).toBe(`https://judge.example${saved.callbackPath}`);
  });

  it('offers only system roles without system:administrator for the rules', () => {
    const role = (name: string, permissions: string[], activityId?: string) => ({ id: name, name, permissions, isBuiltIn: false, grants: 0, mappedBy: [], ...(activityId ? { activityId } : {}) });
    expect(mappable([role('Administrator', ['system:administrator']), role('Teacher', ['activity:create']), role('Helper', [], 'a1')])).toEqual(['Teacher']);
  });
});
