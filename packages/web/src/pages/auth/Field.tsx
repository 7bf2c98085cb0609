import type { InputHTMLAttributes } from 'react';
import { Labelled } from '../../components/Labelled';
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
  return <Labelled label={label} hint={hint} errors={errors}>{(c) => <input {...c} {...input} />}</Labelled>;
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
