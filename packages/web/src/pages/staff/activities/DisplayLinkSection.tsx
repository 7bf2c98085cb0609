import type { Activity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../../api/client';
import { useT } from '../../../i18n/I18n';
import { Refusal } from './Refusal';

/**
 * The activity's display link (decisions §23): shown on request (it is a secret), copied, rotated
 * (every screen with the old one is locked out at once) or removed.
 */
export function DisplayLinkSection({ activity }: { activity: Activity }) {
  const t = useT();
  const qc = useQueryClient();
  const queryKey = ['displayLink', activity.slug];
  const link = useQuery({ queryKey, queryFn: () => call(ops.getDisplayLink, { params: { idOrSlug: activity.slug } }) });
  const [shown, setShown] = useState(false);
  const [copied, setCopied] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = (work: () => Promise<unknown>) => async () => {
    setBusy(true);
    setError(null);
    setCopied(false);
    try {
      await work();
      await qc.invalidateQueries({ queryKey });
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const token = link.data?.token;
  const url = token ? `${window.location.origin}/display/${token}` : '';
  const copy = async () => {
    await navigator.clipboard.writeText(url);
    setCopied(true);
  };
  return (
    <section className="staff-panel display-link" aria-labelledby="display-link-heading">
      <h3 id="display-link-heading">{t('scoreboard.displayLink')}</h3>
      <p className="muted">{t('scoreboard.displayLink.hint')}</p>
      {link.isError && <Refusal error={link.error} />}
      {link.data && !token && <p>{t('scoreboard.displayLink.none')}</p>}
      {token && (
        <p>
          <code className="display-link-url" data-shown={shown}>
            {shown ? url : `${window.location.origin}/display/${'•'.repeat(12)}`}
          </code>
        </p>
      )}
      <div className="staff-actions">
        {token && (
          <>
            <button type="button" onClick={() => setShown(!shown)}>
              {shown ? t('scoreboard.displayLink.hide') : t('scoreboard.displayLink.show')}
            </button>
            <button type="button" onClick={() => void copy().catch(setError)}>
              {copied ? t('scoreboard.displayLink.copied') : t('scoreboard.displayLink.copy')}
            </button>
          </>
        )}
        <button type="button" className={token ? '' : 'primary'} disabled={busy} onClick={run(() => call(ops.rotateDisplayLink, { params: { idOrSlug: activity.slug } }))}>
          {token ? t('scoreboard.displayLink.rotate') : t('scoreboard.displayLink.make')}
        </button>
        {token && (
          <button type="button" disabled={busy} onClick={run(() => call(ops.removeDisplayLink, { params: { idOrSlug: activity.slug } }))}>
            {t('scoreboard.displayLink.remove')}
          </button>
        )}
      </div>
      <Refusal error={error} />
    </section>
  );
}
