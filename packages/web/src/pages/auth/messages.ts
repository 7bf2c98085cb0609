import { defineMessages } from '../../i18n/define';

export const authMessages = defineMessages({
  en: {
    'auth.signIn.title': 'Sign in',
    'auth.login': 'User name or email',
    'auth.password': 'Password',
    'auth.remember': 'Keep me signed in on this computer',
    'auth.submit': 'Sign in',
    'auth.signingIn': 'Signing in…',
    'auth.failed': 'The user name or password is wrong.',
    'auth.locked': 'Too many attempts. Try again in {seconds} seconds.',
    'auth.noAccount': 'No account yet?',
    'auth.registerLink': 'Register',
    'auth.continue': 'Sign in to go on to the page you asked for.',
  },
  de: {
    'auth.signIn.title': 'Anmelden',
    'auth.login': 'Benutzername oder E-Mail',
    'auth.password': 'Passwort',
    'auth.remember': 'Auf diesem Computer angemeldet bleiben',
    'auth.submit': 'Anmelden',
    'auth.signingIn': 'Anmeldung läuft…',
    'auth.failed': 'Benutzername oder Passwort ist falsch.',
    'auth.locked': 'Zu viele Versuche. Versuche es in {seconds} Sekunden erneut.',
    'auth.noAccount': 'Noch kein Konto?',
    'auth.registerLink': 'Registrieren',
    'auth.continue': 'Melde dich an, um zur gewünschten Seite zu gelangen.',
  },
});
