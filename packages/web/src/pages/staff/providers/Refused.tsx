import { ApiProblem } from '@judge/sdk/browser';
import type { ReactNode } from 'react';
import { ErrorBox } from '../../../components/Status';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';

/**
 * A refused request in words: ours for the codes a page knows (`words`), with the server's own
 * detail after them, and what to do about it (`fix`) where the page can offer it; any other
 * failure as the app's usual error box.
 */
export function Refused({ error, words, fix }: { error: unknown; words: Record<string, MessageKey>; fix?: ReactNode }) {
  const t = useT();
  if (error === null || error === undefined) return null;
  const own = error instanceof ApiProblem ? words[error.code] : undefined;
  if (!own) return <ErrorBox error={error} />;
  const p = error as ApiProblem;
  const text = t(own);
  // the server's detail, unless our words say it already (in English they often do)
  const said = (s: string) => s.toLowerCase().replace(/[.\s]+$/, '');
  const detail = p.detail && !said(text).includes(said(p.detail)) ? p.detail : '';
  return (
    <div className="error-box" role="alert" data-code={p.code}>
      <strong>{text}</strong>
      {detail && (
        <span className="error-detail" lang="en">
          {' '}
          ({detail})
        </span>
      )}
      {fix && <div className="refused-fix">{fix}</div>}
    </div>
  );
}

/**
 * The server's errors by member, for each field to show under itself: `body.` dropped, under the
 * full path (`mappingRules.0.claimValue` is one row's). `byCode` puts a refusal that names no
 * member (a taken slug) under the field it is about.
 */
export function fieldErrors(error: unknown, byCode: Record<string, { field: string; text: string }> = {}): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!(error instanceof ApiProblem)) return out;
  for (const [k, v] of Object.entries(error.errors ?? {})) {
    (out[k.replace(/^body\./, '')] ??= []).push(...v);
  }
  const coded = byCode[error.code];
  if (coded && !out[coded.field]?.length) out[coded.field] = [coded.text];
  return out;
}
