import type { InputHTMLAttributes } from 'react';

const withEmail = (path: string, email: string) => (email.trim() ? `${path}?${new URLSearchParams({ email: email.trim() })}` : path);

/** `/reset-password` with the address filled in, for whoever has the mailed code at hand. */
export const resetLink = (email: string) => withEmail('/reset-password', email);

/** `/forgot-password` with the address filled in, to ask for another code. */
export const forgotLink = (email: string) => withEmail('/forgot-password', email);

/**
 * A mailed code's input: offered from the message by phones that read it, never "corrected" by the
 * keyboard, capitals by default (the code is printed in capitals; the server ignores case anyway).
 */
export const CODE_INPUT: InputHTMLAttributes<HTMLInputElement> = { autoComplete: 'one-time-code', autoCapitalize: 'characters', autoCorrect: 'off', spellCheck: false };

/** Whether two addresses are one, as the server compares them (case and surrounding blanks aside). */
export const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
