import type { ParticipantActivity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { call, isProblem } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import type { MessageKey } from '../../i18n/catalogue';

/** The enrolment refusals the server names (activities service, enrol), in the reader's words. */
const REFUSALS: Record<string, MessageKey> = {
  'enrolment.password': 'join.error.password',
  'enrolment.closed': 'join.error.closed',
  'account.notApproved': 'join.error.notApproved',
  'activity.archived': 'join.error.archived',
};

function refusalText(error: unknown): MessageKey | undefined {
  return isProblem(error) && error.code ? REFUSALS[error.code] : undefined;
}

/** Joins an activity as its policy allows: a button when open, a password when it asks one, else how to get in. */
export function JoinBox({ activity, compact = false }: { activity: ParticipantActivity; compact?: boolean }) {
  const t = useT();
  const qc = useQueryClient();
  const id = useId();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (activity.enrolled) return null;
  if (activity.joinPolicy === 'closed') return <p className="notice">{t('join.closedHowTo')}</p>;

  async function join(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = activity.joinPolicy === 'password' ? { password } : {};
      const joined = await call(ops.enrol, { params: { idOrSlug: activity.slug }, body });
      qc.setQueryData(keys.activity(activity.slug), joined);
      void qc.invalidateQueries({ queryKey: keys.activities });
      void qc.invalidateQueries({ queryKey: keys.series(activity.slug) });
    } catch (err) {
      setError(err);
      if (activity.joinPolicy === 'password') setPassword('');
    } finally {
      setBusy(false);
    }
  }

  const known = refusalText(error);
  return (
    <form className={compact ? 'join-box compact' : 'join-box'} onSubmit={(e) => void join(e)} aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="join-title">
        {activity.joinPolicy === 'password' ? t('join.passwordIntro', { name: activity.name }) : t('join.openIntro', { name: activity.name })}
      </p>
      {activity.joinPolicy === 'password' && (
        <label>
          {t('join.password')}
          <input type="password" name="join-password" autoComplete="off" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
      )}
      {error !== null &&
        (known ? (
          <div className="error-box" role="alert">
            {t(known)}
          </div>
        ) : (
          <ErrorBox error={error} />
        ))}
      <button type="submit" className="primary" disabled={busy} aria-label={busy ? undefined : t('join.submitNamed', { name: activity.name })}>
        {busy ? t('join.joining') : t('join.submit')}
      </button>
    </form>
  );
}
