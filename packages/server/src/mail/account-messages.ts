import type { Mail } from './mailer.js';

/**
 * The mail of the identity flows (decisions §4), in the languages the web app speaks: a password
 * reset code, an address to confirm, a new address to confirm. Each carries the code and a link to
 * the web page that takes it; what a user typed (their login, the instance name) is escaped in the
 * HTML.
 */

export type MailLanguage = 'en' | 'de';
const LANGUAGES: readonly MailLanguage[] = ['en', 'de'];

/** The first language of an Accept-Language header the messages are written in; English otherwise. */
export function mailLanguage(acceptLanguage: string | undefined): MailLanguage {
  const wanted = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { lang: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((w) => w.lang && w.q > 0)
    .sort((a, b) => b.q - a.q);
  return (wanted.map((w) => w.lang).find((l) => (LANGUAGES as readonly string[]).includes(l)) as MailLanguage | undefined) ?? 'en';
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface AccountMailContext {
  to: string;
  language: MailLanguage;
  instanceName: string;
  /** The login of the account the message is about. */
  username: string;
  code: string;
  /** The web page that takes the code, with it filled in. */
  link: string;
}

interface Wording {
  subject: string;
  /** Paragraphs; `{link}` and `{code}` stand for the link and the code, set apart in the HTML. */
  paragraphs: string[];
}

type Kind = 'reset' | 'confirm' | 'changeEmail';

const WORDING: Record<MailLanguage, Record<Kind, (c: AccountMailContext) => Wording>> = {
  en: {
    reset: (c) => ({
      subject: `Reset your password for ${c.instanceName}`,
      paragraphs: [
        `Someone, hopefully you, asked to reset the password of the account ${c.username} at ${c.instanceName}.`,
        'Open this link to choose a new password:',
        '{link}',
        'Or choose "Forgot password?" on the sign-in page and enter this code:',
        '{code}',
        'The code works once, within an hour. If you did not ask for it, ignore this message: your password stays as it is.',
      ],
    }),
    confirm: (c) => ({
      subject: `Confirm your address for ${c.instanceName}`,
      paragraphs: [
        `Please confirm that ${c.to} is the address of the account ${c.username} at ${c.instanceName}. Open this link:`,
        '{link}',
        'or enter this code on the page "Confirm your address":',
        '{code}',
        'The code works once, within two days. If you did not make an account, ignore this message.',
      ],
    }),
    changeEmail: (c) => ({
      subject: `Confirm your new address for ${c.instanceName}`,
      paragraphs: [
        `The account ${c.username} at ${c.instanceName} is to use ${c.to} from now on. Open this link to confirm it:`,
        '{link}',
        'or enter this code on the page "Confirm your address":',
        '{code}',
        'Until then the account keeps its old address. The code works once, within two days. If you did not ask for this, ignore this message.',
      ],
    }),
  },
  de: {
    reset: (c) => ({
      subject: `Passwort für ${c.instanceName} zurücksetzen`,
      paragraphs: [
        `Jemand, hoffentlich Sie, möchte das Passwort des Kontos ${c.username} bei ${c.instanceName} zurücksetzen.`,
        'Öffnen Sie diesen Link, um ein neues Passwort zu wählen:',
        '{link}',
        'Oder wählen Sie auf der Anmeldeseite „Passwort vergessen?“ und geben Sie diesen Code ein:',
        '{code}',
        'Der Code gilt einmal, eine Stunde lang. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht: Ihr Passwort bleibt, wie es ist.',
      ],
    }),
    confirm: (c) => ({
      subject: `Bestätigen Sie Ihre Adresse für ${c.instanceName}`,
      paragraphs: [
        `Bitte bestätigen Sie, dass ${c.to} die Adresse des Kontos ${c.username} bei ${c.instanceName} ist. Öffnen Sie diesen Link:`,
        '{link}',
        'oder geben Sie diesen Code auf der Seite „Adresse bestätigen“ ein:',
        '{code}',
        'Der Code gilt einmal, zwei Tage lang. Wenn Sie kein Konto angelegt haben, ignorieren Sie diese Nachricht.',
      ],
    }),
    changeEmail: (c) => ({
      subject: `Bestätigen Sie Ihre neue Adresse für ${c.instanceName}`,
      paragraphs: [
        `Das Konto ${c.username} bei ${c.instanceName} soll ab jetzt ${c.to} verwenden. Öffnen Sie diesen Link, um das zu bestätigen:`,
        '{link}',
        'oder geben Sie diesen Code auf der Seite „Adresse bestätigen“ ein:',
        '{code}',
        'Bis dahin behält das Konto seine bisherige Adresse. Der Code gilt einmal, zwei Tage lang. Wenn Sie das nicht angefordert haben, ignorieren Sie diese Nachricht.',
      ],
    }),
  },
};

function compose(kind: Kind, c: AccountMailContext): Mail {
  const w = WORDING[c.language][kind](c);
  const text = w.paragraphs.map((p) => (p === '{link}' ? c.link : p === '{code}' ? c.code : p)).join('\n\n');
  const html = [
    '<!doctype html><html><body>',
    ...w.paragraphs.map((p) =>
      p === '{link}'
        ? `<p><a href="${escapeHtml(c.link)}">${escapeHtml(c.link)}</a></p>`
        : p === '{code}'
          ? `<p style="font-family:monospace;font-size:1.4em;letter-spacing:0.1em"><strong>${escapeHtml(c.code)}</strong></p>`
          : `<p>${escapeHtml(p)}</p>`,
    ),
    '</body></html>',
  ].join('\n');
  // a name with a line break must not start a header of its own
  return { to: c.to, subject: w.subject.replace(/[\r\n]+/g, ' '), text, html };
}

export const resetMessage = (c: AccountMailContext): Mail => compose('reset', c);
export const confirmMessage = (c: AccountMailContext): Mail => compose('confirm', c);
export const changeEmailMessage = (c: AccountMailContext): Mail => compose('changeEmail', c);
