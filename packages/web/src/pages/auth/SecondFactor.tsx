import { useT } from '../../i18n/I18n';
import { Field } from './Field';

export type SecondStep = 'code' | 'recovery';

interface Props {
  step: SecondStep;
  login: string;
  value: string;
  onChange(value: string): void;
  /** What is wrong with the code just sent, in words. */
  error: string | null;
  /** Whether "Keep me signed in" is ticked: then this browser is remembered for 30 days. */
  remember: boolean;
  onSwitch(step: SecondStep): void;
  /** Counts the codes refused: the field is made anew (empty, focused) after each. */
  attempt: number;
}

/**
 * The sign-in's second step, after the right password of an account with two-factor sign-in: the
 * code the authenticator app shows, or instead one of the recovery codes.
 */
export function SecondFactor({ step, login, value, onChange, error, remember, onSwitch, attempt }: Props) {
  const t = useT();
  const app = step === 'code';
  const hint = [t(app ? 'auth.second.codeHint' : 'auth.second.recoveryHint'), remember ? t('auth.second.remember') : ''].filter(Boolean).join(' ');
  return (
    <>
      <p className="notice" data-second-step={step}>
        {t(app ? 'auth.second.lead' : 'auth.second.leadRecovery')} {t('auth.second.as', { login })}
      </p>
      <Field
        key={`${step}-${attempt}`}
        label={t(app ? 'auth.second.code' : 'auth.second.recovery')}
        name={app ? 'twoFactorCode' : 'twoFactorRecoveryCode'}
        autoComplete={app ? 'one-time-code' : 'off'}
        inputMode={app ? 'numeric' : 'text'}
        autoCapitalize={app ? undefined : 'characters'}
        spellCheck={false}
        maxLength={app ? 8 : 64}
        className={app ? 'otp-input' : 'recovery-input'}
        required
        autoFocus
        value={value}
        onChange={(e) => onChange(e.target.value)}
        hint={hint}
        errors={error ? [error] : undefined}
      />
      <p className="second-switch">
        <button type="button" className="link-button" onClick={() => onSwitch(app ? 'recovery' : 'code')}>
          {t(app ? 'auth.second.useRecovery' : 'auth.second.useApp')}
        </button>
      </p>
    </>
  );
}
