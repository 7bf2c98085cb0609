import type { SubmissionSummary } from '@judge/contract';
import { useState } from 'react';
import { useVerdictWords } from '../../components/Verdict';
import { useT } from '../../i18n/I18n';
import { useLiveFrames } from '../../live/Live';
import { chooseNotify, notifyChosen, notifyPermission, shouldNotify, type Permission } from './notify';

/**
 * Shows a system notification when a verdict of the reader's own arrives while the tab is hidden.
 * Several pages may mount it at once: the notification's tag (the submission) keeps it to one.
 */
export function useVerdictNotifications(): void {
  const words = useVerdictWords();
  const t = useT();
  useLiveFrames('submissionStateChanged', (data) => {
    const s = data.submission as SubmissionSummary | undefined;
    if (!s) return;
    if (!shouldNotify(s, { hidden: document.visibilityState === 'hidden', chosen: notifyChosen(localStorage), permission: notifyPermission() })) return;
    const n = new Notification(t('submit.notify.title', { problem: s.problemName }), { body: words(s), tag: `verdict-${s.id}` });
    n.onclick = () => {
      window.focus();
      window.location.assign(`/a/${encodeURIComponent(s.activitySlug)}/submissions/${encodeURIComponent(s.id)}`);
    };
  });
}

/** "Notify me of verdicts": asks the browser's permission from this click only, and remembers the choice. */
export function NotifyButton() {
  const t = useT();
  const [permission, setPermission] = useState<Permission>(notifyPermission);
  const [chosen, setChosen] = useState(() => notifyChosen(localStorage));
  if (permission === 'unsupported') return null;
  if (permission === 'denied') return <p className="muted notify-state">{t('submit.notify.denied')}</p>;
  const on = chosen && permission === 'granted';

  async function toggle() {
    if (on) {
      chooseNotify(localStorage, false);
      setChosen(false);
      return;
    }
    const p = permission === 'granted' ? 'granted' : await Notification.requestPermission();
    setPermission(p);
    chooseNotify(localStorage, p === 'granted');
    setChosen(p === 'granted');
  }

  return (
    <button type="button" className="notify-button" aria-pressed={on} onClick={() => void toggle()}>
      {on ? t('submit.notify.on') : t('submit.notify.ask')}
    </button>
  );
}
