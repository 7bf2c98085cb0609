import { defineMessages } from '../../i18n/define';

export const activitiesMessages = defineMessages({
  en: {
    'activities.title': 'Activities',
    'activities.none': 'There are no activities for you yet.',
    'activities.state.upcoming': 'Upcoming',
    'activities.state.ongoing': 'Running',
    'activities.state.finished': 'Finished',
    'activities.starts': 'Starts',
    'activities.ends': 'Ends',
    'activities.joined': 'Joined',
    'activities.started': 'Started',
    'activities.ended': 'Ended',
    'activities.managing': 'You manage this',
  },
  de: {
    'activities.title': 'Aktivitäten',
    'activities.none': 'Für dich gibt es noch keine Aktivitäten.',
    'activities.state.upcoming': 'Demnächst',
    'activities.state.ongoing': 'Laufend',
    'activities.state.finished': 'Beendet',
    'activities.starts': 'Beginnt',
    'activities.ends': 'Endet',
    'activities.joined': 'Beigetreten',
    'activities.started': 'Begonnen',
    'activities.ended': 'Beendet',
    'activities.managing': 'Von dir verwaltet',
  },
});
