import { useId, type InputHTMLAttributes } from 'react';
import './forms.css';

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  /** Help shown under the field and read with it. */
  hint?: string | undefined;
  /** What is wrong with the value, in words; marks the field invalid and is read with it. */
  errors?: string[] | undefined;
}

/** A labelled input with its hint and its errors tied to it for screen readers. */
export function Field({ label, hint, errors, ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = errors?.length ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={errorId ? true : undefined} aria-describedby={describedBy} {...input} />
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

/**
 * The problem document's `errors` by field, with refusals the server names by code moved to their
 * field, so each message stands under the input it is about.
 */
export function fieldErrors(errors: Record<string, string[]> | undefined, byCode: Record<string, string> = {}): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(errors ?? {})) out[k.replace(/^body\./, '')] = v;
  for (const [field, text] of Object.entries(byCode)) (out[field] ??= []).push(text);
  return out;
}
