import { appMessages } from '../app/messages';
import { activitiesMessages } from '../pages/activities/messages';
import { activityMessages } from '../pages/activity/messages';
import { problemMessages } from '../pages/problem/messages';
import { authMessages } from '../pages/auth/messages';
import { submitMessages } from '../pages/submit/messages';
import { sampleRunMessages } from '../pages/submit/sample-run-messages';
import { submissionsMessages } from '../pages/submissions/messages';
import { verdictMessages } from '../components/verdict-messages';
import { standingsMessages } from '../pages/standings/messages';
import { awardsMessages } from '../pages/standings/awards-messages';
import { scoreboardMessages } from '../pages/scoreboard/messages';
import { ceremonyMessages } from '../pages/ceremony/messages';
import { accountMessages } from '../pages/account/messages';
import { twoFactorMessages } from '../pages/account/two-factor-messages';
import { registerMessages } from '../pages/auth/register-messages';
import { mailFlowMessages } from '../pages/auth/mail-messages';
import { bannerMessages } from '../app/banner-messages';
import { questionsMessages } from '../pages/questions/messages';
import { printoutsMessages } from '../pages/printouts/messages';
import { staffMessages } from '../pages/staff/messages';
import { staffUsersMessages } from '../pages/staff/users/messages';
import { staffRolesMessages } from '../pages/staff/roles/messages';
import { staffInstanceMessages } from '../pages/staff/instance/messages';
import { staffLookMessages } from '../pages/staff/instance/look-messages';
import { staffRunnersMessages } from '../pages/staff/runners/messages';
import { staffStandingsMessages } from '../pages/staff/standings/messages';
import { peopleMessages } from '../pages/staff/people/messages';
import { homeMessages } from '../pages/staff/home/messages';
import { dashboardMessages } from '../pages/staff/dashboard/messages';
import { terminalMessages } from '../pages/staff/terminal/messages';
import { staffActivitiesMessages } from '../pages/staff/activities/messages';
import { staffNewActivityMessages } from '../pages/staff/activities/new-messages';
import { staffProblemsMessages } from '../pages/staff/problems/messages';
import { staffSubmissionsMessages } from '../pages/staff/submissions/messages';
import { staffProvidersMessages } from '../pages/staff/providers/messages';
import { staffLtiMessages } from '../pages/staff/lti/messages';
import type { Lang } from './define';
import { numberFormat, pluralRules } from './formats';

/** Every part of the catalogue; a page's strings live beside the page and are listed here. */
const PARTS = [
  appMessages,
  authMessages,
  activitiesMessages,
  submitMessages,
  sampleRunMessages,
  activityMessages,
  problemMessages,
  submissionsMessages,
  verdictMessages,
  standingsMessages,
  awardsMessages,
  scoreboardMessages,
  ceremonyMessages,
  accountMessages,
  twoFactorMessages,
  registerMessages,
  mailFlowMessages,
  bannerMessages,
  questionsMessages,
  printoutsMessages,
  staffMessages,
  staffUsersMessages,
  staffRolesMessages,
  staffInstanceMessages,
  staffLookMessages,
  staffRunnersMessages,
  staffStandingsMessages,
  peopleMessages,
  homeMessages,
  dashboardMessages,
  terminalMessages,
  staffActivitiesMessages,
  staffNewActivityMessages,
  staffProblemsMessages,
  staffSubmissionsMessages,
  staffProvidersMessages,
  staffLtiMessages,
] as const;

type Part = (typeof PARTS)[number];
type KeysOf<P> = P extends { en: infer E } ? keyof E & string : never;
type BaseKey<K extends string> = K extends `${infer B}_one` ? B : K extends `${infer B}_other` ? B : K;
export type MessageKey = BaseKey<KeysOf<Part>>;

const tables: Record<Lang, Map<string, string>> = { en: new Map(), de: new Map() };
for (const part of PARTS) {
  for (const lang of Object.keys(tables) as Lang[]) {
    for (const [k, v] of Object.entries(part[lang])) {
      if (tables[lang].has(k)) throw new Error(`message ${k} is defined twice`);
      tables[lang].set(k, v);
    }
  }
}

export type Params = Record<string, string | number>;

/** The message for key in lang, with parameters filled (numbers written in `locale`); `count` picks the plural form. */
export function translate(lang: Lang, key: MessageKey, params?: Params, locale: string = lang): string {
  const table = tables[lang];
  let text: string | undefined;
  if (params && typeof params.count === 'number') {
    const form = pluralRules(lang).select(params.count);
    text = table.get(`${key}_${form}`) ?? table.get(`${key}_other`);
  }
  text ??= table.get(key) ?? tables.en.get(key) ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const v = params[name];
    return v === undefined ? whole : typeof v === 'number' ? numberFormat(locale).format(v) : v;
  });
}

/** Every key of a language, for the test that both languages are complete. */
export function keysOf(lang: Lang): string[] {
  return [...tables[lang].keys()];
}
