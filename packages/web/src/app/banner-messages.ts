import { defineMessages } from '../i18n/define';

export const bannerMessages = defineMessages({
  en: {
    'banner.dismiss': 'Dismiss',
    'banner.region': 'Messages from the organisers',
    'banner.type.info': 'Information',
    'banner.type.success': 'Done',
    'banner.type.warning': 'Warning',
    'banner.type.error': 'Problem',
    'banner.maintenance.closed': 'The judge is closed for maintenance. Pages come back by themselves when it reopens.',
    'banner.maintenance.draining': 'Submissions are paused for maintenance; what was sent is still judged.',
    'banner.maintenance.reason': 'The organisers say: {reason}',
  },
  de: {
    'banner.dismiss': 'Schließen',
    'banner.region': 'Nachrichten der Veranstalter',
    'banner.type.info': 'Information',
    'banner.type.success': 'Erledigt',
    'banner.type.warning': 'Warnung',
    'banner.type.error': 'Problem',
    'banner.maintenance.closed': 'Der Judge ist wegen Wartung geschlossen. Die Seiten kommen von selbst zurück, sobald er wieder offen ist.',
    'banner.maintenance.draining': 'Einreichungen sind wegen Wartung angehalten; bereits Eingereichtes wird weiter bewertet.',
    'banner.maintenance.reason': 'Die Veranstalter sagen: {reason}',
  },
});
