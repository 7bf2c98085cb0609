import { useId, type ReactNode } from 'react';

export interface Described {
  label: string;
  /** Help shown under the field and read with it. */
  hint?: string | undefined;
  /** What the server (or the page) said is wrong with the value, in words. */
  errors?: string[] | undefined;
}

export interface Control {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

/** A label, a control, its help and its errors, tied together for screen readers. */
export function Labelled({ label, hint, errors, children, check }: Described & { children: (c: Control) => ReactNode; check?: boolean }) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const control: Control = { id, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined, 'aria-invalid': errorId ? true : undefined };
  return (
    <div className={check ? 'field check-field' : 'field'}>
      {check ? children(control) : null}
      <label htmlFor={id}>{label}</label>
      {check ? null : children(control)}
      {hint && (
        <small id={hintId} className="muted">
          {hint}
        </small>
      )}
      {errorId && (
        <small id={errorId} className="field-error">
          {errors!.join(' ')}
        </small>
      )}
    </div>
  );
}
