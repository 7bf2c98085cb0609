import { ApiProblem, Unreachable } from '@judge/sdk/browser';
import { useT } from '../i18n/I18n';

export function Loading({ label }: { label?: string }) {
  const t = useT();
  return (
    <p className="loading" role="status" aria-live="polite">
      {label ?? t('app.loading')}
    </p>
  );
}

/** A failed request in words: the server's own detail when it sent one. */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  const t = useT();
  let text: string;
  if (error instanceof Unreachable) text = t('app.error.unreachable');
  else if (error instanceof ApiProblem) text = error.detail || t('app.error.status', { status: error.status });
  else text = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-box" role="alert">
      {title && <strong>{title}</strong>} {text}
    </div>
  );
}
