import { useId } from 'react';
import { useInstance } from '../../app/session';
import { useT } from '../../i18n/I18n';
import { CopyButton } from '../problem/CopyButton';
import { recoveryCodesText } from './two-factor';
import { saveText } from '../../components/saveText';


/**
 * New recovery codes, shown this once: they live only in the card's state (the server keeps their
 * hashes), so leaving the page or "Done" forgets them.
 */
export function RecoveryCodes({ codes, username, onDone }: { codes: readonly string[]; username: string; onDone(): void }) {
  const t = useT();
  const id = useId();
  const instance = useInstance();
  const text = recoveryCodesText(codes, t('twoFactor.codes.fileHeading', { username, instance: instance.data?.name ?? window.location.host }));
  return (
    <section className="recovery-codes" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('twoFactor.codes.title')}</h3>
      <p className="warn-box" role="alert">
        {t('twoFactor.codes.warning')}
      </p>
      <ol className="code-list" aria-label={t('twoFactor.codes.listLabel')}>
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ol>
      <div className="two-factor-actions">
        <button type="button" onClick={() => saveText(text, 'recovery-codes.txt')}>
          {t('twoFactor.codes.download')}
        </button>
        <CopyButton text={text} label={t('twoFactor.codes.copy')} />
      </div>
      <button type="button" className="primary" onClick={onDone}>
        {t('twoFactor.codes.done')}
      </button>
    </section>
  );
}
