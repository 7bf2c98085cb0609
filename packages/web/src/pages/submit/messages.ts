import { defineMessages } from '../../i18n/define';

export const submitMessages = defineMessages({
  en: {
    'submit.title': 'Submit',
    'submit.language': 'Language',
    'submit.code': 'Code',
    'submit.send': 'Submit',
    'submit.sending': 'Sending…',
    'submit.closed': 'Submissions are not accepted here now.',
  },
  de: {
    'submit.title': 'Einreichen',
    'submit.language': 'Sprache',
    'submit.code': 'Code',
    'submit.send': 'Einreichen',
    'submit.sending': 'Wird gesendet…',
    'submit.closed': 'Hier werden derzeit keine Einreichungen angenommen.',
  },
});
