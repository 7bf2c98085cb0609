import { ops, type MaintenanceState } from '@judge/contract';
import { Argument, Option, type Command } from 'commander';
import { api } from '../client.js';
import { emit, fields, when, type JsonOption } from '../output.js';
import { sub } from './common.js';

/** The words an operator types, and the levels they set. */
const LEVELS = { on: 'closed', off: 'open', drain: 'draining' } as const;

const MEANING: Record<MaintenanceState['level'], string> = {
  open: 'serving everything',
  draining: 'no new submissions; judging goes on',
  closed: 'closed to all but administrators',
};

function describeState(m: MaintenanceState): string {
  return fields([
    ['level', `${m.level} (${MEANING[m.level]})`],
    ['since', when(m.since)],
    ['reason', m.reason],
  ]);
}

export function maintenanceCommand(program: Command): void {
  sub(program, 'maintenance', 'Show the maintenance level, or set it: on (closed), drain (no new submissions), off (open)')
    .addArgument(new Argument('[switch]', 'on, drain or off; none shows the level').choices(Object.keys(LEVELS)))
    .option('--reason <text>', 'shown to users while it lasts')
    .action(async (which: keyof typeof LEVELS | undefined, o: JsonOption & { reason?: string }) => {
      const c = await api();
      const m = which
        ? await c.call(ops.setMaintenance, { body: { level: LEVELS[which], ...(o.reason ? { reason: o.reason } : {}) } })
        : await c.call(ops.getMaintenance);
      emit(o, m, () => describeState(m));
    });
}

export function broadcastCommand(program: Command): void {
  sub(program, 'broadcast <text...>', 'Show a message to everybody signed in, now')
    .addOption(new Option('--type <type>', 'how clients show it').choices(['info', 'success', 'warning', 'error']).default('info'))
    .action(async (words: string[], o: JsonOption & { type: 'info' | 'success' | 'warning' | 'error' }) => {
      const c = await api();
      const text = words.join(' ');
      await c.call(ops.sendSystemMessage, { body: { type: o.type, text } });
      emit(o, { sent: true, type: o.type, message: text.trim() }, () => `Sent to every signed-in session (${o.type}).`);
    });
}
