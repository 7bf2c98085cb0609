import type { ParticipantActivity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { useMyPermissions, useStaffAccess } from '../../app/permissions';
import { ErrorBox } from '../../components/Status';
import { usePageTitle } from '../../components/usePageTitle';
import { useT } from '../../i18n/I18n';
import { AboutPickers } from './AboutPickers';

/** The announcement form: to an activity, optionally about a series or one problem. */
export default function AnnouncePage() {
  const t = useT();
  usePageTitle(t('staff.a.title'));
  const { managed } = useStaffAccess();
  const [params] = useSearchParams();
  return (
    <section className="staff-announce">
      <h1 className="page-title">{t('staff.a.title')}</h1>
      {managed.length === 0 ? <p>{t('staff.a.noActivities')}</p> : <AnnounceForm activities={managed} initial={params.get('activity') ?? ''} />}
    </section>
  );
}

interface Draft {
  activity: string;
  series: string;
  problem: string;
  topic: string;
  body: string;
}

function AnnounceForm({ activities, initial }: { activities: ParticipantActivity[]; initial: string }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const start = activities.find((a) => a.slug === initial) ?? activities[0]!;
  const [d, setD] = useState<Draft>({ activity: start.slug, series: '', problem: '', topic: '', body: '' });
  const [sent, setSent] = useState<string | null>(null);
  const activity = activities.find((a) => a.slug === d.activity);
  const perms = useMyPermissions(activity?.id);
  const post = useMutation({
    mutationFn: () =>
      call(ops.createAnnouncement, {
        params: { idOrSlug: d.activity },
        body: { topic: d.topic.trim(), body: d.body.trim(), ...(d.series ? { seriesId: d.series } : {}), ...(d.problem ? { problemId: d.problem } : {}) },
      }),
    onSuccess: (q) => {
      setSent(q.topic);
      setD({ ...d, topic: '', body: '' });
      void qc.invalidateQueries({ queryKey: [keys.staffQuestions({})[0]] });
    },
  });
  const refused = perms.data && !perms.data.has('announcement:create');
  return (
    <form className="form announce-form card" onSubmit={(e) => (e.preventDefault(), post.mutate())}>
      <AboutPickers activities={activities} value={d} set={(v) => setD({ ...d, ...v })} />
      {refused && <p className="warn">{t('staff.a.mayNot')}</p>}
      <label htmlFor={`${id}-topic`}>{t('staff.a.topic')}</label>
      <input id={`${id}-topic`} value={d.topic} onChange={(e) => setD({ ...d, topic: e.target.value })} maxLength={200} required />
      <label htmlFor={`${id}-body`}>{t('staff.a.text')}</label>
      <textarea id={`${id}-body`} rows={5} value={d.body} onChange={(e) => setD({ ...d, body: e.target.value })} maxLength={8000} required />
      <button type="submit" disabled={post.isPending || !d.topic.trim() || !d.body.trim() || refused}>
        {t('staff.a.post')}
      </button>
      {post.isError && <ErrorBox error={post.error} />}
      <p role="status" aria-live="polite">
        {sent && t('staff.a.posted', { topic: sent })}{' '}
        {sent && <Link to={`/staff/questions?activity=${encodeURIComponent(d.activity)}&kind=announcement`}>{t('staff.a.seeAll')}</Link>}
      </p>
    </form>
  );
}
