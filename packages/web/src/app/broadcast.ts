import type { SystemMessageType } from '@judge/contract';

const TYPES: readonly SystemMessageType[] = ['info', 'success', 'warning', 'error'];

/** A systemMessage frame's data as a banner shows it; an unknown type reads as info, an empty text as nothing. */
export function broadcastOf(data: Record<string, unknown>): { type: SystemMessageType; text: string } | null {
  const text = typeof data.message === 'string' ? data.message.trim() : '';
  if (!text) return null;
  const type = TYPES.find((t) => t === data.type) ?? 'info';
  return { type, text };
}
