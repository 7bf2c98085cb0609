import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { Health, InstanceSettings, UpdateInstanceRequest } from '../schemas/instance.js';

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
