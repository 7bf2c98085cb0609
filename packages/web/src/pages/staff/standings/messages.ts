import { defineMessages } from '../../../i18n/define';

export const staffStandingsMessages = defineMessages({
  en: {
    'staff.nav.standings': 'Standings',
    'staff.standings.title': 'Standings',
    'staff.standings.view': 'Show the standings',
    'staff.standings.view.own': 'Everything (through the freeze)',
    'staff.standings.view.public': 'As participants see it',
    'staff.standings.ownNote': 'You see every result, also those a freeze hides from participants. Switch to “As participants see it” before you show this page on a projector.',
    'staff.standings.publicNote': 'Exactly what participants see now, computed by the server as for a participant: a projector may show it.',
    'staff.standings.download': 'Download the standings (CSV)',
    'staff.standings.downloadHint': 'Every result, with usernames, for a spreadsheet or a gradebook; UTF-8 with a byte-order mark.',
    'staff.standings.separator': 'Separated by',
    'staff.standings.separator.comma': 'commas',
    'staff.standings.separator.semicolon': 'semicolons (a spreadsheet set to German)',
    'staff.standings.downloaded': 'Downloaded {file}.',
  },
  de: {
    'staff.nav.standings': 'Rangliste',
    'staff.standings.title': 'Rangliste',
    'staff.standings.view': 'Rangliste zeigen',
    'staff.standings.view.own': 'Alles (durch das Einfrieren hindurch)',
    'staff.standings.view.public': 'Wie Teilnehmende sie sehen',
    'staff.standings.ownNote': 'Du siehst jedes Ergebnis, auch die, die das Einfrieren vor Teilnehmenden verbirgt. Wechsle zu „Wie Teilnehmende sie sehen“, bevor du diese Seite mit einem Beamer zeigst.',
    'staff.standings.publicNote': 'Genau das, was Teilnehmende jetzt sehen, vom Server wie für Teilnehmende berechnet: ein Beamer darf es zeigen.',
    'staff.standings.download': 'Rangliste herunterladen (CSV)',
    'staff.standings.downloadHint': 'Jedes Ergebnis, mit Benutzernamen, für eine Tabellenkalkulation oder ein Notenbuch; UTF-8 mit Byte-Order-Mark.',
    'staff.standings.separator': 'Getrennt durch',
    'staff.standings.separator.comma': 'Kommas',
    'staff.standings.separator.semicolon': 'Semikolons (eine deutsch eingestellte Tabellenkalkulation)',
    'staff.standings.downloaded': '{file} heruntergeladen.',
  },
});
