import type { Mail } from './mailer.js';

/**
 * The judge's messages, each in plain text and HTML. What a user or an administrator typed (the
 * instance name) is escaped wherever the HTML shows it.
 */

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The administrator's check of the mail settings (POST /admin/mail/test, `judgectl mail test`). */
export function testMessage(to: string, instanceName: string, site: string): Mail {
  const text = [
    `This is a test message from ${instanceName} (${site}).`,
    '',
    "An administrator sent it to check the judge's mail settings: if you can read it, confirmations and",
    'password resets reach this address. Nothing needs doing.',
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<p>This is a test message from <strong>${escapeHtml(instanceName)}</strong> (${escapeHtml(site)}).</p>`,
    "<p>An administrator sent it to check the judge's mail settings: if you can read it, confirmations and password resets reach this address. Nothing needs doing.</p>",
    '</body></html>',
  ].join('\n');
  return { to, subject: `Test message from ${instanceName}`, text, html };
}
