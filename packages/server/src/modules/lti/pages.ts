import type { RefusalCode } from './claims.js';

/**
 * The few pages a launch answers itself (decisions §21): a refusal, which says its code and
 * nothing the platform sent but what an unlinked user must pass on, and the page a launch inside a
 * frame gets, whose link opens the judge in a window of its own. No script, no style sheet: the
 * policy allows nothing but being shown in the LMS's frame.
 */
export const LAUNCH_PAGE_POLICY = "default-src 'none'; frame-ancestors *";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>
<body>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

const WHY: Record<RefusalCode, string> = {
  'lti.login.unknown': 'This judge does not know the course system that sent you, or it is switched off here.',
  'lti.launch.state': 'The launch was not started here, was used already, or took too long. Open the link in your course again.',
  'lti.launch.token': 'The course system’s message could not be verified.',
  'lti.launch.nonce': 'The course system’s message does not belong to this launch. Open the link in your course again.',
  'lti.launch.deployment': 'This installation of the course system is not registered here.',
  'lti.launch.message': 'Only links to the judge can be opened here.',
  'lti.launch.subject': 'The course system did not say who you are.',
  'lti.platform.disabled': 'Launches from this course system are switched off here.',
  'lti.launch.unlinked': 'Your account in the course system is not linked to an account of this judge. Ask the judge’s administrator to link it, giving them the lines below.',
  'lti.launch.activity': 'The link names no activity or problem of this judge. Ask your teacher to check its custom parameters.',
  'lti.launch.placement': 'This link is not set up yet: a teacher who manages the activity on the judge must open it once first.',
  'lti.launch.account': 'Your account on the judge may not sign in.',
  'lti.continue.ticket': 'This link was used already or is older than two minutes. Open the link in your course again.',
  maintenance: 'The judge is closed for maintenance. Try again later.',
};

export function refusalPage(code: RefusalCode, unlinked?: { platform: string; subject: string }): string {
  const pass = unlinked ? `<p>Course system: <b>${escape(unlinked.platform)}</b><br>Your id there: <code>${escape(unlinked.subject)}</code></p>\n` : '';
  return page('The judge could not open this link', `<p>${escape(WHY[code])}</p>\n${pass}<p>Code: <code data-lti-error="${escape(code)}">${escape(code)}</code></p>`);
}

/** `continueUrl`: a path of this site with a single-use ticket. */
export function framedPage(continueUrl: string): string {
  return page(
    'Open the judge',
    `<p>The judge works in a window of its own: your browser keeps its sign-in away from pages inside another site's frame.</p>
<p><a href="${escape(continueUrl)}" target="_blank" rel="noopener" data-lti-continue>Open the judge in a new window</a></p>
<p>The link works once, within two minutes.</p>`,
  );
}
