import { useEffect, useState } from 'react';
import { useT } from '../../i18n/I18n';

/** Copies through the Clipboard API, or where that is missing or refused (plain http on a lab network), a hidden text area. */
async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // fall through to the old way
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/**
 * A Copy button that says "Copied" for a moment, announced politely to screen readers; `caption`
 * replaces its visible word "Copy" (e.g. "Copy all").
 */
export function CopyButton({ text, label, caption }: { text: string | undefined; label: string; caption?: string }) {
  const t = useT();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const back = setTimeout(() => setState('idle'), 2500);
    return () => clearTimeout(back);
  }, [state]);
  return (
    <span className="copy">
      <button
        type="button"
        className="small"
        disabled={text === undefined}
        aria-label={label}
        onClick={() => text !== undefined && copyText(text).then(() => setState('copied'), () => setState('failed'))}
      >
        {caption ?? t('problem.sample.copy')}
      </button>
      <span role="status" aria-live="polite" className={`copy-state ${state}`}>
        {state === 'copied' ? t('problem.sample.copied') : state === 'failed' ? t('problem.sample.copyFailed') : ''}
      </span>
    </span>
  );
}
