import { useId, useState, type DragEvent } from 'react';
import { useT } from '../../i18n/I18n';
import { bytes } from './checks';

/**
 * Choosing files: a real file input (keyboard and screen readers use it as it is) inside a zone
 * that also takes files dropped on it. Several files where the problem allows more than one.
 */
export function FilePicker({ files, max, maxBytes, onChange }: { files: File[]; max: number; maxBytes: number; onChange(files: File[]): void }) {
  const t = useT();
  const id = useId();
  const [over, setOver] = useState(false);

  function drop(e: DragEvent) {
    e.preventDefault();
    setOver(false);
    const dropped = [...e.dataTransfer.files];
    if (dropped.length) onChange(max > 1 ? [...files, ...dropped] : dropped);
  }

  return (
    <div
      className={`drop-zone${over ? ' drop-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <label htmlFor={id}>{max > 1 ? t('submit.files.chooseMany') : t('submit.files.choose')}</label>
      <input
        id={id}
        type="file"
        multiple={max > 1}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          onChange([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <p id={`${id}-hint`} className="muted">
        {t('submit.files.hint', { count: max, max: bytes(maxBytes) })}
      </p>
    </div>
  );
}

/** The chosen files, each with a button to take it off the list. */
export function ChosenFiles({ files, onChange }: { files: File[]; onChange(files: File[]): void }) {
  const t = useT();
  if (!files.length) return null;
  return (
    <div className="chosen-files">
      <h3>{t('submit.files.chosen')}</h3>
      <ul>
        {files.map((f, i) => (
          <li key={`${f.name}-${i}`}>
            <span className="file-name">{f.name}</span> <span className="muted">({bytes(f.size)})</span>{' '}
            <button type="button" className="link-button" onClick={() => onChange(files.filter((_, j) => j !== i))} aria-label={t('submit.files.remove', { name: f.name })}>
              ✕
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => onChange([])}>
        {t('submit.files.clear')}
      </button>
    </div>
  );
}
