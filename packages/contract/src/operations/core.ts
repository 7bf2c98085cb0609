import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { ExternalContent, Health, InstanceSettings, SetExternalContentRequest, UpdateInstanceRequest } from '../schemas/instance.js';

export const health = defineOperation({
  id: 'getHealth',
  method: 'GET',
  path: '/health',
  tag: 'Core',
  summary: 'Liveness and maintenance level',
  description:
    'Needs no sign-in. Besides liveness it tells which server answered (whether it leads, its hub\'s lag) and the servers alive on the same database; ' +
    'their host names, process ids and start times only to an administrator, since they map the installation for an attacker and a load balancer needs none of them.',
  auth: 'anonymous',
  response: Health,
  status: 200,
  errors: [],
  extension: true,
});

export const openapi = defineOperation({
  id: 'getOpenApi',
  method: 'GET',
  path: '/openapi.json',
  tag: 'Core',
  summary: 'This API described as OpenAPI 3.1',
  auth: 'anonymous',
  response: z.record(z.string(), z.unknown()),
  status: 200,
  errors: [],
  extension: true,
});

export const getInstance = defineOperation({
  id: 'getInstance',
  method: 'GET',
  path: '/instance',
  tag: 'Instance settings',
  summary: 'Read the instance settings (anonymous: the sign-in page needs them)',
  auth: 'anonymous',
  response: InstanceSettings,
  status: 200,
  errors: [],
  extension: true,
});

export const updateInstance = defineOperation({
  id: 'updateInstance',
  method: 'PUT',
  path: '/instance',
  tag: 'Instance settings',
  summary: 'Change the instance-wide switches',
  auth: 'user',
  body: UpdateInstanceRequest,
  response: InstanceSettings,
  status: 200,
  errors: ['forbidden', 'validation_failed', 'instance.twoFactor.enableFirst'],
  permission: 'instance:update',
});

export const getExternalContent = defineOperation({
  id: 'getExternalContent',
  method: 'GET',
  path: '/instance/external-content',
  tag: 'Instance settings',
  summary: 'The hosts files may be fetched from (POST /files/fetch)',
  description:
    'The catalogue has no key for reading the instance\'s administrative settings, so reading the list takes instance:update, the key that changes it: ' +
    'the list tells which hosts the server will contact on a user\'s behalf, which only whoever runs the installation needs to know.',
  auth: 'user',
  response: ExternalContent,
  status: 200,
  errors: ['forbidden'],
  permission: 'instance:update',
});

export const setExternalContent = defineOperation({
  id: 'setExternalContent',
  method: 'PUT',
  path: '/instance/external-content',
  tag: 'Instance settings',
  summary: 'Replace the hosts files may be fetched from',
  description:
    'Each entry is a host name (files.example.org), or *. and a domain for its subdomains (*.github.io, which does not allow github.io itself), optionally with :port; ' +
    'without a port only the default ports (80 and 443) are allowed. Entries are lowercased, duplicates dropped and the list sorted; a refused entry is named in `errors`, and nothing changes.',
  auth: 'user',
  body: SetExternalContentRequest,
  response: ExternalContent,
  status: 200,
  errors: ['forbidden', 'validation_failed'],
  permission: 'instance:update',
});
