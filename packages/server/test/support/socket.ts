import { expect } from 'vitest';
import WebSocket from 'ws';
import { ops } from '@judge/contract';
import { EventStream, JudgeClient, type Frame } from '@judge/sdk';
import { TestJudge } from '../harness.js';

/**
 * What the event-socket tests share: opening a stream (keeping every raw frame, to check none
 * carries a null), raw handshakes, and a barrier that proves (non-)delivery.
 */

export const wsUrl = (j: TestJudge) => `${j.url.replace(/^http/, 'ws')}/api/v1/ws`;

/** Every raw frame any socket of this file received, to check no frame ever carries a null. */
export const rawFrames: string[] = [];

export async function open(c: JudgeClient): Promise<EventStream> {
  const s = c.events();
  s.socket.on('message', (raw) => rawFrames.push(raw.toString()));
  await s.opened;
  return s;
}

/** Attempts a handshake with exactly these headers: 101 when it opened, else the refusal. */
export function handshake(j: TestJudge, headers: Record<string, string>, path = '/api/v1/ws'): Promise<{ status: number; body?: { code?: string } }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${j.url.replace(/^http/, 'ws')}${path}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve({ status: 101 });
    });
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    ws.on('error', reject);
  });
}

export function hasNull(v: unknown): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(hasNull);
  if (typeof v === 'object') return Object.values(v as object).some(hasNull);
  return false;
}

let barrierCount = 0;
/**
 * Proves (non-)delivery: writes the instance settings, which every signed-in session is told, and
 * waits until each stream has that frame. Frames travel in order on one connection, so whatever an
 * earlier write sent a stream is in front of it; returns those earlier frames (pings left out).
 */
export async function barrier(admin: JudgeClient, streams: EventStream[]): Promise<Frame[][]> {
  const name = `Judge ${++barrierCount}`;
  await admin.call(ops.updateInstance, { body: { name } });
  const out: Frame[][] = [];
  for (const s of streams) {
    const f = await s.next('instanceChanged', 5000);
    expect((f.data as { instance: { name: string } }).instance.name).toBe(name);
    out.push(s.frames.splice(0).filter((x) => x.type !== 'ping'));
  }
  return out;
}

export const types = (frames: Frame[]) => frames.map((f) => f.type);
