import { ApiProblem } from '@judge/sdk/browser';
import type { ReactNode } from 'react';
import { ErrorBox } from '../../../components/Status';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';

/** The refusals of these pages that get our own words (the server's detail follows them). */
const WORDS: Record<string, MessageKey> = {
  'activity.slug.taken': 'staff.activities.refused.slugTaken',
  'activity.seriesOutside': 'staff.activities.refused.seriesOutside',
  'activity.hasSubmissions': 'staff.activities.refused.hasSubmissions',
  'activity.archived': 'staff.activities.refused.archived',
  'series.slug.taken': 'staff.activities.refused.seriesSlugTaken',
  'series.hasSubmissions': 'staff.activities.refused.seriesHasSubmissions',
  'series.alreadyPaused': 'staff.activities.refused.alreadyPaused',
  'series.notPaused': 'staff.activities.refused.notPaused',
  validation_failed: 'staff.activities.refused.invalid',
};

/** A refused change in words, with what to do about it (`fix`) when the page has a fix to offer. */
export function Refusal({ error, fix }: { error: unknown; fix?: ReactNode }) {
  const t = useT();
  if (!error) return null;
  const own = error instanceof ApiProblem ? WORDS[error.code] : undefined;
  if (!own) return <ErrorBox error={error} />;
  const p = error as ApiProblem;
  return (
    <div className="error-box" role="alert" data-code={p.code}>
      <strong>{t(own)}</strong>
      {p.detail && (
        <span className="error-detail" lang="en">
          {' '}
          {p.detail}
        </span>
      )}
      {fix && <div className="refusal-fix">{fix}</div>}
    </div>
  );
}

/** The server's errors by field name (`body.` dropped), for the fields to show under themselves. */
export function errorsByField(error: unknown): Record<string, string[]> {
  if (!(error instanceof ApiProblem) || !error.errors) return {};
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(error.errors)) (out[k.replace(/^body\./, '').split('.')[0]!] ??= []).push(...v);
  return out;
}
