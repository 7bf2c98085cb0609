import { CommanderError, Command } from 'commander';
import { activitiesCommands } from './commands/activities.js';
import { activityDashboardCommand } from './commands/activity-dashboard.js';
import { activityMembersCommands } from './commands/activity-members.js';
import { activitySettingsCommands } from './commands/activity-settings.js';
import { activityAwardsCommands } from './commands/activity-awards.js';
import { assignmentsCommands } from './commands/assignments.js';
import { contestCommands } from './commands/contest.js';
import { printoutsCommands } from './commands/printouts.js';
import { broadcastCommand, maintenanceCommand } from './commands/maintenance.js';
import { mailCommands } from './commands/mail.js';
import { problemsCommands } from './commands/problems.js';
import { questionsCommands } from './commands/questions.js';
import { rankingCommand } from './commands/ranking.js';
import { runnersCommands } from './commands/runners.js';
import { assignCommand, seriesCommands } from './commands/series.js';
import { seriesStandingsCommands } from './commands/series-standings.js';
import { sessionCommands } from './commands/session.js';
import { submissionsCommands } from './commands/submissions.js';
import { usersCommands } from './commands/users.js';
import { grantsCommands, rolesCommands } from './commands/roles.js';
import { instanceCommands } from './commands/instance.js';
import { providersCommands } from './commands/providers.js';
import { ltiCommands } from './commands/lti.js';
import { applyConventions, jsonRequested } from './conventions.js';
import { fail } from './errors.js';
import { VERSION } from './version.js';

const program = new Command('judgectl')
  .description('Manage a judge from a terminal. Every command takes --json for scripts; a failure says why and exits non-zero (with --json as one JSON object on standard error).')
  .version(VERSION)
  .showHelpAfterError('(add --help for usage)');

sessionCommands(program);
usersCommands(program);
rolesCommands(program);
grantsCommands(program);
instanceCommands(program);
providersCommands(program);
ltiCommands(program);
problemsCommands(program);
const activities = activitiesCommands(program);
activitySettingsCommands(activities);
activityMembersCommands(activities);
activityDashboardCommand(activities);
activityAwardsCommands(activities);
seriesStandingsCommands(seriesCommands(program));
assignCommand(program);
assignmentsCommands(program);
runnersCommands(program);
submissionsCommands(program);
rankingCommand(program);
contestCommands(program);
questionsCommands(program);
printoutsCommands(program);
maintenanceCommand(program);
broadcastCommand(program);
mailCommands(program);

applyConventions(program);

program.parseAsync().catch((e: unknown) => {
  if ((e as { name?: string }).name === 'ExitPromptError') process.exit(130);
  if (e instanceof CommanderError) process.exit(e.exitCode || 1);
  fail(e, jsonRequested());
});
