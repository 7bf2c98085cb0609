import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { printoutRefusal } from './limits';
import './printouts.css';

/** "Print this submission" on a submission page, while the activity takes printouts. */
export function PrintSubmission({ activity, submissionId }: { activity: string; submissionId: string }) {
  const t = useT();
  const qc = useQueryClient();
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');
  const [error, setError] = useState<unknown>(null);
  async function print() {
    setState('busy');
    setError(null);
    try {
      await call(ops.requestPrintout, { params: { idOrSlug: activity }, body: { submissionId } });
      setState('sent');
      await qc.invalidateQueries({ queryKey: keys.printouts(activity) });
    } catch (e) {
      setError(e);
      setState('idle');
    }
  }
  const refusal = printoutRefusal(error);
  return (
    <div className="print-submission">
      <button type="button" onClick={() => void print()} disabled={state === 'busy'}>
        {t('printouts.printSubmission')}
      </button>
      <p role="status" className="printout-sent">
        {state === 'sent' && (
          <>
            {t('printouts.submissionSent')} <Link to={`/a/${encodeURIComponent(activity)}/printouts`}>{t('printouts.seeAll')}</Link>
          </>
        )}
      </p>
      {refusal ? <p className="error-box" role="alert">{t(refusal)}</p> : error !== null && <ErrorBox error={error} />}
    </div>
  );
}
