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
    'auth.notAllowed': 'This account may not sign in now. If its address still needs confirming, follow the link in the message we mailed you; or the account was for a limited time that is over.',
    'auth.confirmLink': 'Ask for a new confirmation message',
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
    'auth.notAllowed': 'Dieses Konto darf sich gerade nicht anmelden. Wenn seine Adresse noch bestätigt werden muss, folge dem Link in unserer Nachricht; sonst galt das Konto nur für eine Zeit, die vorbei ist.',
    'auth.confirmLink': 'Neue Bestätigungsnachricht anfordern',
  },
});
