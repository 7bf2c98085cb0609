import type { Printout } from '@judge/contract';
import { useState } from 'react';
import { useOutletContext } from 'react-router';
import { useLiveFrames } from '../../live/Live';
import { ErrorBox, Loading } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { Time } from '../../i18n/time';
import type { ActivityContext } from '../activity/ActivityLayout';
import { useOwnPrintouts } from './queries';
import { RequestForm } from './RequestForm';
import './printouts.css';

function StateCell({ p }: { p: Printout }) {
  const t = useT();
  return (
    <td data-state={p.state}>
      <span className={`printout-state state-${p.state}`}>{t(`printouts.state.${p.state}`)}</span>
      {p.state === 'claimed' && p.claimedByName && <span className="muted"> {t('printouts.claimedBy', { name: p.claimedByName })}</span>}
    </td>
  );
}

function OwnPrintouts({ items, timeZone }: { items: Printout[]; timeZone: string }) {
  const t = useT();
  if (!items.length) return <p className="muted">{t('printouts.none')}</p>;
  return (
    // focusable so that a keyboard can scroll it sideways on a phone
    <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="printouts-mine">
      <table className="printouts-table">
        <thead>
          <tr>
            <th scope="col">{t('printouts.col.file')}</th>
            <th scope="col">{t('printouts.col.requested')}</th>
            <th scope="col">{t('printouts.col.state')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((p) => (
            <tr key={p.id} data-printout={p.id}>
              <td>
                <strong>{p.title}</strong>
                {p.title !== p.fileName && <span className="muted"> ({p.fileName})</span>}
              </td>
              <td>
                <Time iso={p.requestedAt} timeZone={timeZone} />
              </td>
              <StateCell p={p} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Says politely when one of the reader's printouts changes state (the table refetches by itself). */
function StateNews({ activityId }: { activityId: string }) {
  const t = useT();
  const [said, setSaid] = useState('');
  useLiveFrames('printoutStateChanged', (d) => {
    const p = d.printout as Printout | undefined;
    if (d.activityId === activityId && p) setSaid(t('printouts.stateNow', { title: p.title, state: t(`printouts.state.${p.state}`) }));
  });
  return (
    <p className="visually-hidden" role="status" aria-live="polite">
      {said}
    </p>
  );
}

/** The participant's printouts: ask to print a file, and watch the own requests' states (live). */
export default function PrintoutsPage() {
  const t = useT();
  const { activity } = useOutletContext<ActivityContext>();
  const on = activity.modules.printouts;
  const q = useOwnPrintouts(activity.slug, on);
  usePageTitle(t('printouts.title'));
  if (!on) return <p className="notice">{t('printouts.disabled')}</p>;
  return (
    <section className="printouts-page" aria-labelledby="printouts-title">
      <h1 id="printouts-title" className="page-title">
        {t('printouts.title')}
      </h1>
      <p className="muted">{t('printouts.intro')}</p>
      <StateNews activityId={activity.id} />
      <div className="main-side printouts-columns">
        <section aria-labelledby="printouts-mine">
          <h2 id="printouts-mine">{t('printouts.mine')}</h2>
          {q.isPending ? <Loading /> : q.isError ? <ErrorBox error={q.error} /> : <OwnPrintouts items={q.data.items} timeZone={activity.timeZone} />}
        </section>
        {!activity.archivedAt && <RequestForm slug={activity.slug} />}
      </div>
    </section>
  );
}
