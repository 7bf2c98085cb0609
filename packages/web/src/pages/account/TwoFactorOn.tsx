import type { TwoFactorState } from '@judge/contract';
import { useState } from 'react';
import { ErrorBox } from '../../components/Status';
import type { MessageKey } from '../../i18n/catalogue';
import { useT } from '../../i18n/I18n';
import { useChangeTwoFactor, type TwoFactorChange } from './useTwoFactor';

type Action = 'newCodes' | 'forget' | 'off' | 'newKey';

/** Each action: what it sends, and, for the ones that cannot be taken back, the question first. */
const ACTIONS: Record<Action, { body: TwoFactorChange; button: MessageKey; confirm?: { text: MessageKey; yes: MessageKey }; danger?: boolean }> = {
  newCodes: { body: { resetRecoveryCodes: true }, button: 'twoFactor.newCodes', confirm: { text: 'twoFactor.newCodesConfirm', yes: 'twoFactor.newCodesYes' } },
  forget: { body: { forgetMachine: true }, button: 'twoFactor.forget' },
  newKey: { body: { resetSharedKey: true }, button: 'twoFactor.newKey', confirm: { text: 'twoFactor.newKeyConfirm', yes: 'twoFactor.newKeyYes' }, danger: true },
  off: { body: { enable: false }, button: 'twoFactor.turnOff', confirm: { text: 'twoFactor.turnOffConfirm', yes: 'twoFactor.turnOffYes' }, danger: true },
};

/**
 * Two-factor sign-in is on: how many recovery codes are left, and new codes, forgetting this
 * browser, turning it off and a new key (a new phone), the last three asked first. `onChanged`
 * gets the answer and the action (new recovery codes ride in it).
 */
export function TwoFactorOn({ state, onChanged }: { state: TwoFactorState; onChanged(next: TwoFactorState, action: Action): void }) {
  const t = useT();
  const change = useChangeTwoFactor();
  const [asking, setAsking] = useState<Action | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [said, setSaid] = useState('');
  const low = state.recoveryCodesLeft <= 3;

  async function run(a: Action) {
    setBusy(true);
    setError(null);
    setSaid('');
    try {
      const next = await change(ACTIONS[a].body);
      setAsking(null);
      if (a === 'forget') setSaid(t('twoFactor.forgotten'));
      onChanged(next, a);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const shown: Action[] = ['newCodes', ...(state.isMachineRemembered ? (['forget'] as const) : []), 'newKey', 'off'];
  const question = asking ? ACTIONS[asking].confirm : undefined;
  return (
    <div className="two-factor-on">
      <p className="ok-box" data-two-factor="on">
        <strong>{t('twoFactor.isOn')}</strong> {t('twoFactor.isOnNote')}
      </p>
      <p className={low ? 'warn-box' : undefined} data-codes-left={state.recoveryCodesLeft}>
        {t('twoFactor.codesLeft', { count: state.recoveryCodesLeft })} {low && t('twoFactor.codesLow')}
      </p>
      {state.isMachineRemembered && <p className="muted">{t('twoFactor.remembered')}</p>}
      {asking && question ? (
        <div className="confirm" role="group" aria-label={t(ACTIONS[asking].button)}>
          <span>{t(question.text)}</span>
          <button type="button" className={ACTIONS[asking].danger ? 'danger' : 'primary'} disabled={busy} autoFocus onClick={() => void run(asking)}>
            {busy ? t('twoFactor.working') : t(question.yes)}
          </button>
          <button type="button" onClick={() => setAsking(null)}>
            {t('twoFactor.no')}
          </button>
        </div>
      ) : (
        <div className="two-factor-actions">
          {shown.map((a) => (
            <button key={a} type="button" disabled={busy} onClick={() => (setSaid(''), setError(null), ACTIONS[a].confirm ? setAsking(a) : void run(a))}>
              {t(ACTIONS[a].button)}
            </button>
          ))}
        </div>
      )}
      {error !== null && <ErrorBox error={error} />}
      <p role="status">{said}</p>
    </div>
  );
}
