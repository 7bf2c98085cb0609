import { useId, useRef, useState } from 'react';
import { useT } from '../../../i18n/I18n';

/**
 * A command to paste on another machine, with a Copy button. The clipboard API needs a secure
 * page (https or localhost); where the browser refuses it, the command is selected instead and the
 * reader is told to press Ctrl+C.
 */
export function CopyCommand({ text, label }: { text: string; label: string }) {
  const t = useT();
  const id = useId();
  const box = useRef<HTMLPreElement>(null);
  const [said, setSaid] = useState<'copied' | 'byHand' | null>(null);
  const selectAll = () => {
    const el = box.current;
    const sel = window.getSelection();
    if (!el || !sel) return;
    const range = document.createRange();
    range.selectNodeContents(el);
    sel.removeAllRanges();
    sel.addRange(range);
  };
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setSaid('copied');
    } catch {
      selectAll();
      setSaid('byHand');
    }
  };
  return (
    <div className="copy-command">
      <span id={`${id}-label`} className="copy-label">
        {label}
      </span>
      <pre ref={box} aria-labelledby={`${id}-label`} tabIndex={0} onFocus={selectAll}>
        <code>{text}</code>
      </pre>
      <button type="button" onClick={() => void copy()} aria-describedby={`${id}-label`}>
        {t('staff.codes.copy')}
      </button>
      <p role="status" className="muted">
        {said === 'copied' ? t('staff.codes.copied') : said === 'byHand' ? t('staff.codes.copyByHand') : ''}
      </p>
    </div>
  );
}
