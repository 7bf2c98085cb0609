import type { Runner } from '@judge/contract';
import { Link } from 'react-router';
import { useT } from '../../../i18n/I18n';
import { Time } from '../../../i18n/time';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** What a runner judges now, in words, with a link to the activity's staff pages where there is one. */
export function CurrentJob({ job }: { job: NonNullable<Runner['currentJob']> }) {
  const t = useT();
  const activity = job.activitySlug ? (
    <Link to={`/staff/a/${encodeURIComponent(job.activitySlug)}`}>{job.activityName ?? job.activitySlug}</Link>
  ) : null;
  const problem = job.problemName ?? job.problemSlug ?? '';
  let what: string;
  if (job.kind === 'submission') what = t('staff.runners.job.submission', { id: (job.submissionId ?? job.id).slice(0, 8), problem, activity: '\u0000' });
  else if (job.kind === 'trial') what = job.activitySlug ? t('staff.runners.job.trialIn', { activity: '\u0000' }) : t('staff.runners.job.trial');
  else what = t('staff.runners.job.sampleRun', { problem, activity: '\u0000' });
  // the activity's name is a link: the sentence is split where the message puts it
  const [before, after = ''] = what.split('\u0000');
  const progress = job.progress
    ? job.progress.total !== undefined
      ? t('staff.runners.job.progress', { done: job.progress.done, total: job.progress.total })
      : t('staff.runners.job.progressOpen', { done: job.progress.done })
    : undefined;
  return (
    <span className="runner-job">
      {before}
      {activity}
      {after}
      {job.attempt !== undefined && job.attempt > 1 && <> {t('staff.runners.job.rejudge', { count: job.attempt })}</>}
      {progress && <>, {progress}</>}
      {job.since && (
        <>
          {' '}
          ({t('staff.runners.job.since')} <Time iso={job.since} timeZone={localZone} />)
        </>
      )}
    </span>
  );
}
