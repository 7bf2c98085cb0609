import { ApiProblem } from '@judge/sdk/browser';
import { describe, expect, it } from 'vitest';
import { translate } from '../../i18n/catalogue';
import { refusalOf } from './errors';

const limits = {
  maxUploadBytes: 65536,
  maxAttachments: 3,
  allowedLanguages: [
    { id: 'cpp', name: 'C++20', extensions: ['cpp'] },
    { id: 'python3', name: 'Python 3', extensions: ['py'] },
  ],
};
const said = (status: number, doc: Record<string, unknown>, retryAfter?: number) => {
  const r = refusalOf(new ApiProblem(status, doc, retryAfter), limits)!;
  return { text: translate('en', r.key, r.params), detail: r.detail };
};

describe("the server's submit refusals in words", () => {
  it('says each refusal of the submit operation as the participant can act on it', () => {
    expect(said(403, { code: 'series.closed', detail: 'The series is paused' })).toEqual({ text: 'Refused: this series does not take submissions now.', detail: 'The series is paused' });
    expect(said(403, { code: 'series.address', detail: 'not from 10.0.0.9' }).text).toContain('network address');
    expect(said(403, { code: 'submission.limit', detail: 'x' }).text).toBe('Refused: you have used every submission allowed for this problem.');
    expect(said(413, { code: 'payload_too_large' }).text).toBe('Refused: a file is larger than the 64 KiB allowed.');
    expect(said(422, { code: 'file.tooMany' }).text).toBe('Refused: at most 3 files may be sent here.');
    expect(said(422, { code: 'checksum_mismatch' }).text).toContain('Please submit again');
    expect(said(409, { code: 'activity.archived' }).text).toBe('Refused: this activity is archived.');
    expect(said(429, { code: 'rate_limited' }, 7).text).toBe('Too many submissions at once. Try again in 7 s.');
  });

  it('names the allowed languages of a language refusal, and the fields of a malformed one', () => {
    const lang = said(422, { code: 'submission.language', errors: { language: ['no runner reported cobol'], allowed: ['python3', 'java'] } });
    expect(lang).toEqual({ text: 'Refused: this language cannot be judged here. Allowed: Python 3, java.', detail: 'no runner reported cobol' });
    const invalid = said(422, { code: 'validation_failed', errors: { fileName: ['two parts with one file name'] } });
    expect(invalid).toEqual({ text: 'Refused: the submission is not well formed.', detail: 'fileName: two parts with one file name' });
    expect(said(500, { code: 'internal', detail: 'boom' })).toEqual({ text: 'The submission failed (HTTP 500).', detail: 'boom' });
  });

  it('leaves what is not a refusal (the server unreachable, a bug) to the general error box', () => {
    expect(refusalOf(new Error('network down'), limits)).toBeNull();
  });
});

describe('a submission refused for maintenance', () => {
  it('says that submissions are paused (draining) or the judge is closed, and that the code is worth keeping', () => {
    expect(said(503, { code: 'server.draining', detail: 'draining' }, 30).text).toBe('Refused: submissions are paused for maintenance. Keep your code and send it again when they reopen.');
    expect(said(503, { code: 'server.maintenance' }, 30).text).toContain('closed for maintenance');
  });
});
