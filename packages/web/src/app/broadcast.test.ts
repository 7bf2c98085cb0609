import { describe, expect, it } from 'vitest';
import { broadcastOf } from './broadcast';

describe('a broadcast as its banner shows it', () => {
  it('keeps the four types, reads anything else as info, and shows nothing for an empty message', () => {
    expect(broadcastOf({ type: 'warning', message: 'Lunch in room 2' })).toEqual({ type: 'warning', text: 'Lunch in room 2' });
    for (const type of ['info', 'success', 'error']) expect(broadcastOf({ type, message: 'x' })?.type).toBe(type);
    expect(broadcastOf({ type: 'shout', message: 'x' })).toEqual({ type: 'info', text: 'x' });
    expect(broadcastOf({ type: 'info', message: '  ' })).toBeNull();
    expect(broadcastOf({ type: 'info' })).toBeNull();
  });
});
