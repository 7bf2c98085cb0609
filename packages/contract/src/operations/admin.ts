import { defineOperation } from '../operation.js';
import { MaintenanceState, SetMaintenanceRequest, SystemMessageRequest, TestMailRequest, TestMailResult } from '../schemas/instance.js';

export const getMaintenance = defineOperation({
  id: 'getMaintenance',
  method: 'GET',
  path: '/admin/maintenance',
  tag: 'Administration',
  summary: 'The maintenance level, with when it was entered and why',
  auth: 'user',
  response: MaintenanceState,
  status: 200,
  errors: ['forbidden'],
  permission: 'system:administrator',
  extension: true,
});

export const setMaintenance = defineOperation({
  id: 'setMaintenance',
  method: 'PUT',
  path: '/admin/maintenance',
  tag: 'Administration',
  summary: 'Set the maintenance level',
  description:
    '`draining` refuses new submissions, trials and rejudges (503 `server.draining`) while judging, claims and reports go on; ' +
    '`closed` answers every request but `/health`, sign-in and what administrators need with 503 `server.maintenance` and `Retry-After`; ' +
    '`open` serves everything again. Each change sends `maintenanceChanged` to every session; setting the current level again changes nothing.',
  auth: 'user',
  body: SetMaintenanceRequest,
  response: MaintenanceState,
  status: 200,
  errors: ['forbidden', 'validation_failed'],
  permission: 'system:administrator',
  extension: true,
});

export const sendSystemMessage = defineOperation({
  id: 'sendSystemMessage',
  method: 'POST',
  path: '/admin/system-message',
  tag: 'Administration',
  summary: 'Broadcast a message to every signed-in session (`systemMessage`)',
  auth: 'user',
  body: SystemMessageRequest,
  status: 204,
  errors: ['forbidden', 'validation_failed'],
  permission: 'system:administrator',
  extension: true,
});

export const sendTestMail = defineOperation({
  id: 'sendTestMail',
  method: 'POST',
  path: '/admin/mail/test',
  tag: 'Administration',
  summary: 'Send a test message, to check the mail settings',
  description:
    'Sends a short message with the instance name to `to`, at once, the way confirmations and password resets go: over SMTP when `mail.smtpUrl` is set, ' +
    "otherwise written to the answering server's DATA_DIR/outbox/. 502 `mail.failed` when the SMTP server cannot be reached or refuses it, with its answer in `detail` " +
    '(the URL shown with its password masked).',
  auth: 'user',
  body: TestMailRequest,
  response: TestMailResult,
  status: 200,
  errors: ['forbidden', 'validation_failed', 'mail.failed'],
  permission: 'system:administrator',
  extension: true,
});
