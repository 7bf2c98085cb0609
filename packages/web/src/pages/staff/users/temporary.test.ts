import { describe, expect, it } from 'vitest';
import { credentialsCsv, credentialsText, temporaryBody } from './temporary';

const issued = [
  { userId: 'u1', username: 'guest01', password: 'Abc123def456' },
  { userId: 'u2', username: 'guest02', password: 'x"y,z' },
];

describe('temporary accounts', () => {
  it('sends what was typed, leaving out a blank expiry and no activity', () => {
    expect(temporaryBody({ prefix: ' guest ', count: '3', expiresAt: '', activity: '' }, undefined)).toEqual({ prefix: 'guest', count: 3 });
    const body = temporaryBody({ prefix: 'lab', count: '12', expiresAt: '2026-11-28T18:30', activity: 'cup' }, 'act-1');
    expect(body).toEqual({ prefix: 'lab', count: 12, expiresAt: new Date('2026-11-28T18:30').toISOString(), activityId: 'act-1' });
  });

  it('makes the CSV (username,password, quoted where needed) and the text to paste', () => {
    expect(credentialsCsv(issued)).toBe('\uFEFFusername,password\r\nguest01,Abc123def456\r\nguest02,"x""y,z"\r\n');
    expect(credentialsText(issued)).toBe('guest01\tAbc123def456\nguest02\tx"y,z');
  });
});
