import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, OPERATIONS, eventsDocument } from '@judge/contract';
import { TestJudge, raw } from './harness.js';

const root = (f: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../../${f}`, import.meta.url)), 'utf8'));

describe('the published API documents', () => {
  let j: TestJudge;
  beforeAll(async () => {
    j = await TestJudge.start();
  });
  afterAll(() => j.stop());

  it('serves the committed openapi.json (regenerate with `pnpm gen:docs`)', async () => {
    const served = await raw(`${j.url}/api/v1/openapi.json`);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(root('openapi.json'));
  });

  it('commits the event catalogue as events.json', () => {
    expect(eventsDocument(API_VERSION)).toEqual(root('events.json'));
  });

  it('binds a handler to every operation the contract lists, and to nothing else', () => {
    expect([...j.app.operations].sort()).toEqual(OPERATIONS.map((o) => o.id).sort());
  });

  it('describes every operation with a success status and its error codes', () => {
    const doc = root('openapi.json');
    for (const o of OPERATIONS) {
      const op = doc.paths[o.path][o.method.toLowerCase()];
      expect(op.operationId).toBe(o.id);
      expect(Object.keys(op.responses)).toContain(String(o.status));
      if (o.auth === 'user') expect(Object.keys(op.responses)).toContain('401');
    }
  });
});
