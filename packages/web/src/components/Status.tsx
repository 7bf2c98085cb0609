import { ApiProblem, Unreachable } from '@judge/sdk/browser';
import type { MessageKey } from '../i18n/catalogue';
import { useI18n, useT } from '../i18n/I18n';

/** Refusals every page may meet, in the reader's language (the server's detail is English). */
const BY_CODE: Record<string, MessageKey> = {
  unauthenticated: 'app.error.unauthenticated',
  forbidden: 'app.error.forbidden',
  not_found: 'app.error.notFound',
  conflict: 'app.error.conflict',
  validation_failed: 'app.error.invalid',
  'account.nameFixed': 'app.error.nameFixed',
  'server.maintenance': 'app.error.maintenance',
  'server.draining': 'app.error.maintenance',
};

export function Loading({ label }: { label?: string }) {
  const t = useT();
  return (
    <p className="loading" role="status" aria-live="polite">
      {label ?? t('app.loading')}
    </p>
  );
}

/**
 * A failed request in words: in English the server's own detail when it sent one; in another
 * language our words for its code, with the server's (English) detail after them, marked as English.
 */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  const { t, lang } = useI18n();
  let text: string;
  let detail: string | undefined;
  if (error instanceof Unreachable) text = t('app.error.unreachable');
  else if (error instanceof ApiProblem) {
    const own = BY_CODE[error.code] ?? (error.status === 429 ? 'app.error.tooMany' : undefined);
    if (lang !== 'en') {
      text = t(own ?? 'app.error.status', { status: error.status });
      detail = error.detail || undefined;
    } else text = error.detail || t(own ?? 'app.error.status', { status: error.status });
  } else text = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-box" role="alert">
      {title && <strong>{title}</strong>} {text}
      {detail && (
        <span className="error-detail" lang="en">
          {' '}
          ({detail})
        </span>
      )}
    </div>
  );
}
