import { z } from 'zod';
import { ERROR_CODES } from './errors.js';
import type { Operation } from './operation.js';
import { ProblemDocument } from './wire.js';

function schemaOf(t: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const s = z.toJSONSchema(t, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete s.$schema;
  return s;
}

function parametersOf(o: Operation): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'path' | 'query', obj: z.ZodObject | undefined) => {
    if (!obj) return;
    const js = schemaOf(obj, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, schema] of Object.entries(js.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema });
    }
  };
  add('path', o.params);
  add('query', o.query);
  return out;
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** Builds the OpenAPI 3.1 document served at /api/v1/openapi.json and committed as openapi.json. */
export function openApiDocument(operations: readonly Operation[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const o of operations) {
    const responses: Record<string, unknown> = {};
    if (o.status === 204) responses['204'] = { description: 'Done' };
    else if (o.response === 'redirect') responses['302'] = { description: 'Redirect', headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } } };
    else if (o.response === 'binary') responses[String(o.status)] = { description: 'File content', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
    else if (o.response) responses[String(o.status)] = { description: 'Success', content: { 'application/json': { schema: schemaOf(o.response, 'output') } } };
    const statuses = new Map<number, string[]>();
    for (const code of o.errors) {
      const status = ERROR_CODES[code];
      statuses.set(status, [...(statuses.get(status) ?? []), code]);
    }
    if (o.auth !== 'anonymous' && !statuses.has(401)) statuses.set(401, ['unauthenticated']);
    for (const [status, codes] of [...statuses].sort((a, b) => a[0] - b[0])) responses[String(status)] = problemResponse(`code: ${codes.join(', ')}`);
    const op: Record<string, unknown> = {
      operationId: o.id,
      tags: [o.tag],
      summary: o.summary,
      ...(o.description ? { description: o.description } : {}),
      ...(o.permission ? { 'x-permission': o.permission } : {}),
      ...(o.extension ? { 'x-extension': true } : {}),
      ...(o.auth === 'anonymous' ? { security: [] } : o.auth === 'runner' ? { security: [{ runner: [] }] } : {}),
      parameters: parametersOf(o),
      responses,
    };
    if (o.body) {
      op.requestBody = {
        required: true,
        content: { [o.multipart ? 'multipart/form-data' : 'application/json']: { schema: schemaOf(o.body, 'input') } },
      };
    }
    (paths[o.path] ??= {})[o.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Judge API', version, description: 'REST API of the judge. Every failure is application/problem+json with a stable `code`.' },
    servers: [{ url: '/api/v1' }],
    paths,
    components: {
      schemas: { Problem: schemaOf(ProblemDocument, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'accessToken from POST /identity/login' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'judge_session', description: 'Session cookie from POST /identity/login?useCookies=true' },
        runner: { type: 'http', scheme: 'bearer', description: 'A runner token from POST /runner/auth/token' },
      },
    },
    security: [{ bearer: [] }, { cookie: [] }],
  };
}
