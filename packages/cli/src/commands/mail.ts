import { ops } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { emit, type JsonOption } from '../output.js';
import { sub } from './common.js';

export function mailCommands(program: Command): void {
  const mail = program.command('mail').description("The judge's mail (confirmations, password resets): check its settings");
  sub(mail, 'test <address>', 'Send a test message to ADDRESS now, over SMTP (setting mail.smtpUrl) or into the outbox; says where it went or why it failed')
    .action(async (address: string, o: JsonOption) => {
      const c = await api();
      const r = await c.call(ops.sendTestMail, { body: { to: address } });
      emit(o, r, () =>
        r.transport === 'smtp'
          ? `Sent to ${address} from ${r.from} over SMTP; the server answered: ${r.response ?? 'OK'}`
          : `No SMTP server is set (mail.smtpUrl): the message to ${address} from ${r.from} was written to outbox/${r.file} in the data directory of the server that answered.`,
      );
    });
}
