import type { TwoFactorState } from '@judge/contract';
import { useId, useState } from 'react';
import { ErrorBox, Loading } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { RecoveryCodes } from './RecoveryCodes';
import { TwoFactorRequired } from './TwoFactorRequired';
import { TwoFactorOn } from './TwoFactorOn';
import { TwoFactorSetup } from './TwoFactorSetup';
import { useTwoFactor } from './useTwoFactor';

/**
 * The account's two-factor sign-in: off (what it is, and setting it up with a QR code), the
 * recovery codes just made (once), or on (codes left, new codes, turn off, a new key).
 */
export function TwoFactorForm({ username }: { username: string }) {
  const t = useT();
  const id = useId();
  const q = useTwoFactor();
  // new recovery codes, shown until "Done"; only the answer that made them carries them
  const [codes, setCodes] = useState<string[]>([]);
  const [settingUp, setSettingUp] = useState(false);
  const [said, setSaid] = useState('');

  const changed = (next: TwoFactorState, action?: string) => {
    if (next.recoveryCodes.length) setCodes(next.recoveryCodes);
    if (action === 'newKey') setSettingUp(true);
    setSaid(action === 'off' ? t('twoFactor.turnedOff') : !action ? t('twoFactor.enabled') : '');
  };

  let body;
  if (q.isPending) body = <Loading />;
  else if (q.isError) body = <ErrorBox error={q.error} />;
  else if (codes.length) body = <RecoveryCodes codes={codes} username={username} onDone={() => (setCodes([]), setSaid(''))} />;
  else if (q.data.isTwoFactorEnabled) body = <TwoFactorOn state={q.data} onChanged={changed} />;
  else if (settingUp || q.data.required)
    body = <TwoFactorSetup state={q.data} onEnabled={(next) => (setSettingUp(false), changed(next))} onCancel={q.data.required ? undefined : () => setSettingUp(false)} />;
  else
    body = (
      <>
        <p>{t('twoFactor.offIntro')}</p>
        <button type="button" className="primary" onClick={() => (setSaid(''), setSettingUp(true))}>
          {t('twoFactor.setUp')}
        </button>
      </>
    );

  return (
    <section className="two-factor" aria-labelledby={`${id}-h`} id="two-factor">
      <h2 id={`${id}-h`}>{t('twoFactor.title')}</h2>
      {q.data?.required && !q.data.isTwoFactorEnabled && <TwoFactorRequired />}
      {body}
      <p role="status" className="muted">
        {said}
      </p>
    </section>
  );
}
