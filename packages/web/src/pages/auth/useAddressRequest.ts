import { useState, type FormEvent } from 'react';
import { isProblem } from '../../api/client';
import { fieldErrors } from './Field';

/**
 * The state of a form that sends one address to an anonymous request the server answers alike
 * whether an account has it (forgotPassword, resendConfirmationEmail): only what kept the request
 * from being taken is said (a malformed address, a spent budget, no connection). Typing again after
 * "sent" makes the form ready to send anew.
 */
export function useAddressRequest(send: (email: string) => Promise<unknown>, initialEmail = '') {
  const [email, setEmailState] = useState(initialEmail);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [general, setGeneral] = useState<unknown>(null);
  const [state, setState] = useState<'idle' | 'busy' | 'sent'>('idle');

  function setEmail(value: string) {
    setEmailState(value);
    if (state === 'sent') setState('idle');
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setGeneral(null);
    setState('busy');
    try {
      await send(email.trim());
      setState('sent');
    } catch (err) {
      if (isProblem(err, 422) && err.errors) setErrors(fieldErrors(err.errors));
      else setGeneral(err);
      setState('idle');
    }
  }

  return { email, setEmail, errors, general, state, submit };
}
