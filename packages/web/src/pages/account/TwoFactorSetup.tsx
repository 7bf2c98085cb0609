import type { TwoFactorState } from '@judge/contract';
import { useState, type FormEvent } from 'react';
import { isProblem } from '../../api/client';
import { ErrorBox } from '../../components/Status';
import { useT } from '../../i18n/I18n';
import { Field } from '../auth/Field';
import { CopyButton } from '../problem/CopyButton';
import { QrCode } from './QrCode';
import { codeDigits, keyInGroups } from './two-factor';
import { useChangeTwoFactor } from './useTwoFactor';

/**
 * Enrolment: the key as a QR code and as text to type, then a code of it turns two-factor sign-in
 * on (so a key the app never got cannot lock the owner out). `onEnabled` gets the answer, which
 * carries the new recovery codes.
 */
export function TwoFactorSetup({ state, onEnabled, onCancel }: { state: TwoFactorState; onEnabled(next: TwoFactorState): void; onCancel?: (() => void) | undefined }) {
  const t = useT();
  const change = useChangeTwoFactor();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const grouped = keyInGroups(state.sharedKey);

  async function turnOn(e: FormEvent) {
    e.preventDefault();
    setCodeError(null);
    setError(null);
    if (!codeDigits(code)) return setCodeError(t('twoFactor.error.codeRequired'));
    setBusy(true);
    try {
      const next = await change({ enable: true, twoFactorCode: codeDigits(code) });
      setCode('');
      onEnabled(next);
    } catch (err) {
      setCode('');
      if (isProblem(err, 422, 'twoFactor.code.invalid')) setCodeError(t('twoFactor.error.codeInvalid'));
      else if (isProblem(err, 422, 'twoFactor.code.required')) setCodeError(t('twoFactor.error.codeRequired'));
      else setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="form two-factor-setup" onSubmit={(e) => void turnOn(e)} noValidate aria-label={t('twoFactor.setUp')}>
      <p>{t('twoFactor.step.scan')}</p>
      {state.authenticatorUri && <QrCode text={state.authenticatorUri} alt={t('twoFactor.qrAlt')} />}
      <p>{t('twoFactor.step.key')}</p>
      <div className="shared-key-row">
        <code className="shared-key" data-shared-key={state.sharedKey}>
          {grouped}
        </code>
        <CopyButton text={state.sharedKey} label={t('twoFactor.copyKey')} />
      </div>
      <p>{t('twoFactor.step.code')}</p>
      <Field
        label={t('twoFactor.code')}
        name="twoFactorCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]*"
        maxLength={8}
        className="otp-input"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        hint={t('twoFactor.codeHint')}
        errors={codeError ? [codeError] : undefined}
      />
      {error !== null && <ErrorBox error={error} />}
      <div className="two-factor-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('twoFactor.turningOn') : t('twoFactor.turnOn')}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {t('twoFactor.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}
