import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { DisplayLink, Scoreboard } from '../schemas/scoreboards.js';

const IdOrSlug = z.string().min(1).max(64);
/** A display link's secret: 32 random bytes in base64url (43 characters); anything else names nothing. */
const DisplayToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
const S = 'Scoreboards';

const BOARD =
  'The standings in their public view (as a participant sees them, whatever the caller holds: the freeze and the ranking windows apply, rows follow scoreVisibility, no usernames), ' +
  "with the activity's name, slug and times, the counted series' freeze and reveal instants, the freeze in force, the medal counts and the rows they fall to now, " +
  "the first solve of each problem (from the public view only) and the server's clock. ";

const FEED =
  'A Server-Sent Events stream (text/event-stream, not JSON) for screens nobody signs in on: `data: changed` whenever the public standings may have changed ' +
  '(a result, a reveal, a series or activity change), at most about twice a second, and a `: keep-alive` comment every 15 s. ' +
  'Messages carry no data: the page reads the board again. The stream ends when access ends (the scoreboard made private, the link rotated or removed, the server closing). ';

export const getScoreboard = defineOperation({
  id: 'getScoreboard',
  method: 'GET',
  path: '/activities/{idOrSlug}/scoreboard',
  tag: S,
  summary: 'The public scoreboard of an activity: its public standings and what a projector shows around them',
  description:
    BOARD +
    'Anyone may read it, signed in or not, while the activity is published with publicScoreboard on; otherwise only signed-in callers who may read its ranking (ranking:read), and it is 404 to others.',
  auth: 'anonymous',
  params: z.object({ idOrSlug: IdOrSlug }),
  response: Scoreboard,
  status: 200,
  errors: ['not_found', 'forbidden'],
  permission: 'ranking:read, or none with publicScoreboard',
  extension: true,
});

export const scoreboardFeed = defineOperation({
  id: 'scoreboardFeed',
  method: 'GET',
  path: '/activities/{idOrSlug}/scoreboard/feed',
  tag: S,
  summary: 'A read-only change feed for the public scoreboard (Server-Sent Events)',
  description: FEED + 'Who may open it: as getScoreboard.',
  auth: 'anonymous',
  params: z.object({ idOrSlug: IdOrSlug }),
  response: 'binary',
  status: 200,
  errors: ['not_found', 'forbidden'],
  permission: 'ranking:read, or none with publicScoreboard',
  extension: true,
});

export const getDisplayScoreboard = defineOperation({
  id: 'getDisplayScoreboard',
  method: 'GET',
  path: '/displays/{token}',
  tag: S,
  summary: "The scoreboard through an activity's display link: no session needed",
  description:
    BOARD +
    'The token is the secret staff made with rotateDisplayLink; it shows the public view whether or not publicScoreboard is on. An unknown, rotated or removed token is 404. ' +
    'The server never writes the token to its log.',
  auth: 'anonymous',
  params: z.object({ token: DisplayToken }),
  response: Scoreboard,
  status: 200,
  errors: ['not_found'],
  // the token alone decides; a session the browser sends along is not looked at (nor is the path recorded on it)
  ignoresSession: true,
  extension: true,
});

export const displayFeed = defineOperation({
  id: 'displayFeed',
  method: 'GET',
  path: '/displays/{token}/feed',
  tag: S,
  summary: 'The change feed of a display link (Server-Sent Events)',
  description: FEED + 'An unknown, rotated or removed token is 404.',
  auth: 'anonymous',
  params: z.object({ token: DisplayToken }),
  response: 'binary',
  status: 200,
  errors: ['not_found'],
  // the token alone decides; a session the browser sends along is not looked at (nor is the path recorded on it)
  ignoresSession: true,
  extension: true,
});

export const getDisplayLink = defineOperation({
  id: 'getDisplayLink',
  method: 'GET',
  path: '/activities/{idOrSlug}/display-link',
  tag: S,
  summary: "The activity's display link secret, if it has one",
  auth: 'user',
  params: z.object({ idOrSlug: IdOrSlug }),
  response: DisplayLink,
  status: 200,
  errors: ['not_found', 'forbidden'],
  permission: 'activity:update',
  extension: true,
});

export const rotateDisplayLink = defineOperation({
  id: 'rotateDisplayLink',
  method: 'POST',
  path: '/activities/{idOrSlug}/display-link',
  tag: S,
  summary: 'Makes a new display link secret (32 random bytes, base64url); the old one stops working at once, and its open feeds end',
  auth: 'user',
  params: z.object({ idOrSlug: IdOrSlug }),
  response: DisplayLink,
  status: 200,
  errors: ['not_found', 'forbidden'],
  permission: 'activity:update',
  extension: true,
});

export const removeDisplayLink = defineOperation({
  id: 'removeDisplayLink',
  method: 'DELETE',
  path: '/activities/{idOrSlug}/display-link',
  tag: S,
  summary: 'Removes the display link: its secret stops working at once, and its open feeds end',
  auth: 'user',
  params: z.object({ idOrSlug: IdOrSlug }),
  status: 204,
  errors: ['not_found', 'forbidden'],
  permission: 'activity:update',
  extension: true,
});
