import { ops } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { ops as table } from '../src/op-table.js';

describe("the SDK's operation table for browsers", () => {
  it('has every operation of the contract with its method, path, status and download flag (regenerate with `pnpm gen:docs`)', () => {
    const light = (o: { id: string; method: string; path: string; status: number; response?: unknown }) => ({
      id: o.id,
      method: o.method,
      path: o.path,
      status: o.status,
      binary: o.response === 'binary',
    });
    expect(Object.fromEntries(Object.entries(table).map(([k, o]) => [k, light(o)]))).toEqual(Object.fromEntries(Object.entries(ops).map(([k, o]) => [k, light(o)])));
  });
});
