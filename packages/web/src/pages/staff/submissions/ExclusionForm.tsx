import type { SubmissionDetail } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { call } from '../../../api/client';
import { useMay } from '../../../app/permissions';
import { ErrorBox } from '../../../components/Status';
import { useI18n } from '../../../i18n/I18n';
import { formatInZone } from '../../../i18n/time';
import { JudgectlHint } from '../JudgectlHint';
import { useSubmissionAction } from './queries';

/** Whether the submission counts in the ranking: exclude it with a reason, or count it again. */
export function ExclusionForm({ s, timeZone }: { s: SubmissionDetail; timeZone: string }) {
  const { t, locale } = useI18n();
  const may = useMay(s.activityId, 'submission:exclude') === true;
  const [reason, setReason] = useState('');
  const change = useSubmissionAction((excluded: boolean) =>
    call(ops.setSubmissionExcluded, { params: { id: s.id }, body: { excluded, ...(excluded && reason.trim() ? { reason: reason.trim() } : {}) } }),
  );
  return (
    <div className="exclusion" data-excluded={s.excluded}>
      <h3>{t('staff.sub.exclusion')}</h3>
      {s.excluded ? (
        <p>
          {s.excludedAt ? t('staff.sub.excludedSince', { time: formatInZone(s.excludedAt, timeZone, locale) }) : t('staff.subs.excluded')}
          {s.exclusionReason && (
            <>
              {' '}
              <span className="exclusion-reason">{t('staff.sub.excludedWhy', { reason: s.exclusionReason })}</span>
            </>
          )}
        </p>
      ) : (
        <p>{t('staff.sub.counts')}</p>
      )}
      {may && !s.excluded && (
        <form
          className="resolve-form"
          onSubmit={(e) => {
            e.preventDefault();
            change.mutate(true, { onSuccess: () => setReason('') });
          }}
        >
          <label htmlFor="exclusion-reason">{t('staff.sub.reason')}</label>
          <input id="exclusion-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          <button type="submit" className="danger" disabled={change.isPending}>
            {t('staff.sub.exclude')}
          </button>
        </form>
      )}
      {may && s.excluded && (
        <button type="button" onClick={() => change.mutate(false)} disabled={change.isPending}>
          {t('staff.sub.include')}
        </button>
      )}
      <p role="status" className="action-status">
        {change.isSuccess && (change.variables ? t('staff.sub.excludedNow') : t('staff.sub.includedNow'))}
      </p>
      {change.isError && <ErrorBox error={change.error} />}
      {may && <JudgectlHint command={`judgectl submissions exclude ${s.id} --reason "…"`} />}
    </div>
  );
}
