import type { Ctx } from './context.js';

/**
 * Makes the response a long-lived stream of `type` (a feed a screen or a tool keeps open for
 * hours): no idle timeout on its connection, each write sent at once, nothing cached, and a reverse
 * proxy told to pass the writes on as they come (nginx buffers otherwise).
 */
export function streamingResponse(ctx: Ctx, type: string): void {
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.type = type;
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Accel-Buffering', 'no');
}
