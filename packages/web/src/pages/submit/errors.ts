import { ApiProblem } from '@judge/sdk/browser';
import type { LanguageChoice } from '@judge/contract';
import type { MessageKey, Params } from '../../i18n/catalogue';
import { bytes } from './checks';

export interface Refusal {
  key: MessageKey;
  params?: Params;
  /** The server's own words, shown under ours: they name the detail (which field, which address). */
  detail?: string;
}

const BY_CODE: Record<string, MessageKey> = {
  'series.closed': 'submit.error.closed',
  'series.address': 'submit.error.address',
  'submission.limit': 'submit.error.limit',
  'submission.empty': 'submit.error.empty',
  'submission.fileName.missing': 'submit.error.fileName',
  checksum_mismatch: 'submit.error.checksum',
  'problem.noVersion': 'submit.error.noVersion',
  'activity.archived': 'submit.error.archived',
  unsupported_media_type: 'submit.error.invalid',
  not_found: 'submit.error.notFound',
  forbidden: 'submit.error.forbidden',
  'server.draining': 'submit.error.paused',
  'server.maintenance': 'submit.error.maintenance',
  'sampleRuns.disabled': 'submit.error.sampleRunsOff',
  'sampleRun.noSamples': 'submit.error.noSamples',
};

/** A refused submission in words, from the server's problem document; null: not a refusal (unreachable, a bug). */
export function refusalOf(e: unknown, limits: { maxUploadBytes: number; maxAttachments: number; allowedLanguages: LanguageChoice[] }): Refusal | null {
  if (!(e instanceof ApiProblem)) return null;
  const detail = e.detail || undefined;
  if (e.status === 413 || e.code === 'payload_too_large') return { key: 'submit.error.tooLarge', params: { max: bytes(limits.maxUploadBytes) } };
  if (e.code === 'file.tooMany') return { key: 'submit.error.tooMany', params: { count: limits.maxAttachments } };
  if (e.status === 429) return { key: 'submit.error.rateLimited', params: { seconds: e.retryAfter ?? 1 } };
  if (e.code === 'submission.language') {
    const allowedIds = e.errors?.allowed ?? limits.allowedLanguages.map((l) => l.id);
    const names = allowedIds.map((id) => limits.allowedLanguages.find((l) => l.id === id)?.name ?? id);
    return { key: 'submit.error.language', params: { allowed: names.join(', ') || '—' }, detail: e.errors?.language?.join(' ') ?? detail };
  }
  if (e.code === 'validation_failed') {
    const fields = Object.entries(e.errors ?? {}).map(([field, why]) => `${field}: ${why.join(' ')}`);
    return { key: 'submit.error.invalid', detail: fields.join('; ') || detail };
  }
  const key = BY_CODE[e.code];
  return key ? { key, detail } : { key: 'submit.error.other', params: { status: e.status }, detail };
}
