import { ApiError, ops } from '@judge/contract';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Api } from '../../http/api.js';
import { clientAddress, expectedOrigin, type Ctx, type RequestState } from '../../http/context.js';
import { setSessionCookie } from '../../http/session-cookie.js';
import { LtiRefusal } from './claims.js';
import type { ToolKeys } from './keys.js';
import type { LtiLanding } from './landing.js';
import type { LoginRequest, LtiLaunch } from './launch.js';
import { framedPage, LAUNCH_PAGE_POLICY, refusalPage } from './pages.js';
import type { LtiPlatformsService } from './platforms.js';

export interface LtiServices {
  platforms: LtiPlatformsService;
  keys: ToolKeys;
  launch: LtiLaunch;
  landing: LtiLanding;
}

/** An LMS posts forms (application/x-www-form-urlencoded); an ID token with many claims is a few kilobytes. */
const formBody = koaBody({
  multipart: false,
  json: false,
  text: false,
  urlencoded: true,
  formLimit: '256kb',
  parsedMethods: ['POST'] as never,
  onError: (err) => {
    throw err;
  },
}) as unknown as Koa.Middleware<RequestState>;

/** The string members of a posted form (a repeated one: its last value). */
function formOf(ctx: Ctx): Record<string, string> {
  const body = (ctx.request as unknown as { body?: unknown }).body;
  const out: Record<string, string> = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    const last = Array.isArray(v) ? v[v.length - 1] : v;
    if (typeof last === 'string') out[k] = last;
  }
  return out;
}

function answerPage(ctx: Ctx, status: number, html: string): void {
  ctx.status = status;
  ctx.set('Content-Security-Policy', LAUNCH_PAGE_POLICY);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}

/** Runs a browser step of a launch: a refusal becomes its page (decisions §21), anything else stays an error. */
async function browserStep(ctx: Ctx, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (e) {
    const refusal = e instanceof LtiRefusal ? e : e instanceof ApiError && e.code === 'server.maintenance' ? new LtiRefusal('maintenance', e.message) : undefined;
    if (!refusal) throw e;
    answerPage(ctx, refusal.status, refusalPage(refusal.code, refusal.unlinked));
  }
}

const clientOf = (ctx: Ctx) => ({ ipAddress: clientAddress(ctx), userAgent: ctx.get('user-agent') || undefined });

/** A document the browser loads into a frame (Fetch Metadata); browsers without it get the top-level answer. */
const framed = (ctx: Ctx) => ['iframe', 'frame'].includes(ctx.get('sec-fetch-dest'));

export function ltiRoutes(api: Api, s: LtiServices, opts: { publicUrl: string }): void {
  api.bind(ops.listLtiPlatforms, ({ actor }) => s.platforms.list(actor));
  api.bind(ops.createLtiPlatform, async ({ actor, body, ctx }) => {
    const p = await s.platforms.create(actor, body);
    ctx.set('Location', `/api/v1/lti/platforms/${p.id}`);
    return p;
  });
  api.bind(ops.getLtiPlatform, ({ actor, params }) => s.platforms.get(actor, params.id));
  api.bind(ops.updateLtiPlatform, ({ actor, params, body }) => s.platforms.update(actor, params.id, body));
  api.bind(ops.deleteLtiPlatform, ({ actor, params }) => s.platforms.remove(actor, params.id));
  api.bind(ops.getLtiRegistration, ({ actor, params, ctx }) => s.platforms.registration(actor, params.id, expectedOrigin(ctx, opts.publicUrl)));
  api.bind(ops.linkLtiAccount, ({ actor, params, body }) => s.platforms.link(actor, params.id, body.subject, body.userId));
  api.bind(ops.ltiKeySet, () => s.keys.publicSet());
  api.bind(ops.rotateLtiKey, ({ actor }) => s.keys.rotate(actor));

  const login = (ctx: Ctx, r: LoginRequest) =>
    browserStep(ctx, async () => ctx.redirect(await s.launch.login(r, expectedOrigin(ctx, opts.publicUrl))));
  api.bind(ops.ltiLoginGet, ({ query, ctx }) => login(ctx, query));
  api.bind(ops.ltiLoginPost, ({ ctx }) => login(ctx, formOf(ctx)), [formBody]);

  api.bind(
    ops.ltiLaunch,
    ({ ctx }) =>
      browserStep(ctx, async () => {
        const form = formOf(ctx);
        const launch = await s.launch.verify(form.id_token, form.state);
        const arrival = await s.landing.land(launch, clientOf(ctx), framed(ctx));
        if ('ticket' in arrival) return answerPage(ctx, 200, framedPage(`/api/v1/lti/continue/${arrival.ticket}`));
        setSessionCookie(ctx, arrival.cookie, { publicUrl: opts.publicUrl });
        ctx.redirect(arrival.target);
      }),
    [formBody],
  );
  api.bind(ops.ltiContinue, ({ params, ctx }) =>
    browserStep(ctx, async () => {
      const arrival = await s.landing.continueWith(params.ticket, clientOf(ctx));
      setSessionCookie(ctx, arrival.cookie, { publicUrl: opts.publicUrl });
      ctx.redirect(arrival.target);
    }),
  );
}
