import { useState } from 'react';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { Refused } from './Refused';

/** The part of a react-query mutation these buttons use. */
interface Action {
  mutate(): void;
  reset(): void;
  isPending: boolean;
  isError: boolean;
  error: unknown;
}

/**
 * Removing something that sign-in depends on (a provider, an LMS platform): asked first, and when
 * the server refuses because it is in use, switching it off is offered in the refusal instead.
 */
export function RemoveOrDisable(props: {
  enabled: boolean;
  remove: Action;
  disable: Action;
  words: Record<string, MessageKey>;
  labels: { remove: string; confirm: string; yes: string; disableInstead: string };
}) {
  const { enabled, remove, disable, words, labels } = props;
  const t = useT();
  const [asking, setAsking] = useState(false);
  const fix = enabled && (
    <button type="button" onClick={() => disable.mutate()} disabled={disable.isPending}>
      {labels.disableInstead}
    </button>
  );
  return (
    <>
      {!asking ? (
        <button type="button" className="danger" onClick={() => (remove.reset(), setAsking(true))}>
          {labels.remove}
        </button>
      ) : (
        <span className="confirm" role="group" aria-label={labels.confirm}>
          <span>{labels.confirm}</span>
          <button type="button" className="danger" onClick={() => (setAsking(false), remove.mutate())} disabled={remove.isPending} autoFocus>
            {labels.yes}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t('staff.cancel')}
          </button>
        </span>
      )}
      <div className="refusal-slot">
        <Refused error={remove.error} words={words} fix={fix} />
        {disable.isError && <Refused error={disable.error} words={words} />}
      </div>
    </>
  );
}
