import { ops } from '@judge/sdk/browser';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';

/**
 * A new signing key for the judge (POST /lti/keys/rotate), asked first: the old key stays
 * published for a day, so platforms that cached it go on verifying (decisions §21).
 */
export function RotateKey() {
  const t = useT();
  const id = useId();
  const [asking, setAsking] = useState(false);
  const rotate = useMutation({ mutationFn: () => call(ops.rotateLtiKey) });
  return (
    <section className="card admin-card rotate-key" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.lti.key.title')}</h2>
      <p className="muted field-help">{t('staff.lti.key.intro')}</p>
      {!asking ? (
        <button type="button" onClick={() => (rotate.reset(), setAsking(true))}>
          {t('staff.lti.key.rotate')}
        </button>
      ) : (
        <span className="confirm" role="group" aria-label={t('staff.lti.key.confirm')}>
          <span>{t('staff.lti.key.confirm')}</span>
          <button type="button" className="danger" onClick={() => (setAsking(false), rotate.mutate())} autoFocus>
            {t('staff.lti.key.yes')}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t('staff.cancel')}
          </button>
        </span>
      )}
      <div role="status">
        {rotate.data && (
          <p data-kid={rotate.data.kid}>
            {t('staff.lti.key.done', { kid: rotate.data.kid })}{' '}
            <span className="muted">{t('staff.lti.key.published', { kids: rotate.data.published.map((k) => k.kid).join(', ') })}</span>
          </p>
        )}
      </div>
      {rotate.isError && <ErrorBox error={rotate.error} />}
    </section>
  );
}
