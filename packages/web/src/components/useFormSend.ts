import { useState, type FormEvent } from 'react';

/**
 * The life of a form that sends one request: busy while it runs, the error it ended with (kept
 * until the next try) and whether it went through. `submit(action)` makes the form's onSubmit.
 */
export function useFormSend() {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = (action: () => Promise<void>) => async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSent(false);
    try {
      await action();
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, sent, error, submit };
}
