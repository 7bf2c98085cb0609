import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, settingsTable } from '../src/config.js';
import { COMMAND_SETTINGS, PLAIN_STRING_SETTINGS, heldSettings } from '../src/ops/restore-settings.js';
import { readBackup, withSettings, writeBackup, type GenuineBackup } from './support/forged-backup.js';
import { JUDGE, Scratch, initDataDir, judge, judgeEnv } from './support/judge-process.js';

/**
 * A forged archive's judge.json cannot make the restored judge run its programs: the settings
 * that run one are restored only when the administrator confirms them, on a terminal or with
 * --trust-commands; otherwise they are left out, and said.
 */

const s = new Scratch();
let work: string;
let genuine: GenuineBackup;
afterAll(() => s.cleanup());

beforeAll(async () => {
  work = s.dir();
  const data = join(work, 'data');
  initDataDir(s, data);
  const r = judge(['backup', '--data-dir', data, join(work, 'genuine.tar')]);
  if (r.status !== 0) throw new Error(r.stderr);
  genuine = await readBackup(join(work, 'genuine.tar'));
}, 240_000);

const FORGED = { port: 9090, printing: { command: 'touch /tmp/judge-forged-printout' }, web: { dir: '/etc' }, auth: { lockoutMinutes: 30 } };

/** A backup whose judge.json is the forger's; its exact bytes. */
async function forged(name: string, settings: unknown): Promise<{ file: string; bytes: Buffer }> {
  const file = join(work, name);
  const entries = withSettings(genuine.entries, settings);
  await writeBackup(file, genuine, entries);
  return { file, bytes: entries.find((e) => e.name === 'judge.json')!.data };
}

/** The settings the restored judge starts with, as `judge serve` reads them (no JUDGE_* variables). */
const effective = (dir: string) => loadConfig(dir, {}, {});

describe('settings that run programs, in a restored judge.json', () => {
  it('are left out without the administrator confirming them, and said', async () => {
    const { file } = await forged('forged.tar', FORGED);
    const target = join(work, 'plain');
    const r = judge(['restore', file, '--data-dir', target, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('judge: left out of the new judge.json, because they run programs or name files outside the data directory:\n  printing.command = "touch /tmp/judge-forged-printout"\n  web.dir = "/etc"\n');
    expect(r.stderr).toContain('restore again with --trust-commands');
    const summary = JSON.parse(r.stdout) as { commandSettings: { key: string }[]; commandSettingsRestored: boolean };
    expect(summary.commandSettings.map((c) => c.key)).toEqual(['printing.command', 'web.dir']);
    expect(summary.commandSettingsRestored).toBe(false);
    // the rest of the file is the backup's
    expect(JSON.parse(readFileSync(join(target, 'judge.json'), 'utf8'))).toEqual({ port: 9090, printing: {}, web: {}, auth: { lockoutMinutes: 30 } });
    const config = effective(target);
    expect(config.printing.command).toBe('');
    expect(config.web.dir).toBe(effective(join(work, 'data')).web.dir);
    expect(config.port).toBe(9090);
  }, 240_000);

  it('are restored as they are with --trust-commands', async () => {
    const { file, bytes } = await forged('trusted.tar', FORGED);
    const target = join(work, 'trusted');
    const r = judge(['restore', file, '--data-dir', target, '--trust-commands']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain("judge: restored from the backup's judge.json, as confirmed,");
    expect(readFileSync(join(target, 'judge.json'))).toEqual(bytes);
    expect(effective(target).printing.command).toBe('touch /tmp/judge-forged-printout');
  }, 240_000);

  it('are shown and asked about on a terminal', async () => {
    const { file, bytes } = await forged('asked.tar', { printing: { command: 'lp -d hall\u001b]2;pwned\u0007' } });
    // `script` gives the restore a terminal; the answer is typed ahead
    const onTerminal = (target: string, answer: string) =>
      spawnSync('script', ['-qec', `${JUDGE} restore ${file} --data-dir ${target}`, '/dev/null'], { env: judgeEnv(), input: answer, encoding: 'utf8', timeout: 180_000 });
    const no = onTerminal(join(work, 'asked-no'), 'n\r');
    expect(no.status, no.stdout).toBe(0);
    // shown escaped: the archive's bytes cannot drive the terminal
    expect(no.stdout).toContain('printing.command = "lp -d hall\\u001b]2;pwned\\u0007"');
    expect(no.stdout).not.toContain('\u001b]2;');
    expect(no.stdout).toContain('Restore these settings as they are?');
    expect(effective(join(work, 'asked-no')).printing.command).toBe('');

    const yes = onTerminal(join(work, 'asked-yes'), 'y\r');
    expect(yes.status, yes.stdout).toBe(0);
    expect(readFileSync(join(work, 'asked-yes', 'judge.json'))).toEqual(bytes);
  }, 240_000);

  it('a judge.json that is not a JSON object is not restored without confirmation', async () => {
    const { file } = await forged('garbled.tar', '{"printing": {"command": "lp"');
    const target = join(work, 'garbled');
    const r = judge(['restore', file, '--data-dir', target]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('judge.json = "{\\"printing\\"');
    expect(() => readFileSync(join(target, 'judge.json'))).toThrow(/ENOENT/);
  }, 240_000);

  it('default values, and a judge.json without such settings, are restored byte for byte', async () => {
    const { file, bytes } = await forged('harmless.tar', { port: 9191, printing: { command: '' }, languages: 'config/languages.json' });
    const target = join(work, 'harmless');
    const r = judge(['restore', file, '--data-dir', target]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(readFileSync(join(target, 'judge.json'))).toEqual(bytes);
  }, 240_000);

  it('a database setting is held, and shown without its password', () => {
    const { held } = heldSettings(Buffer.from(JSON.stringify({ database: 'postgres://judge:s3cret@db.example/judge', port: 9090 })));
    expect(held).toEqual([{ key: 'database', value: 'postgres://judge:***@db.example/judge', why: COMMAND_SETTINGS.database }]);
  });

  it('a mail server setting is held (it would receive every reset link), and shown without its password; the sender is not', () => {
    const { held } = heldSettings(Buffer.from(JSON.stringify({ mail: { smtpUrl: 'smtp://judge:m4il-secret@mail.example:587', from: 'judge@school.example' } })));
    expect(held).toEqual([{ key: 'mail.smtpUrl', value: 'smtp://judge:***@mail.example:587', why: COMMAND_SETTINGS['mail.smtpUrl'] }]);
  });

  it('prototype keys are held like commands', () => {
    const { held } = heldSettings(Buffer.from('{"__proto__": {"printing": {"command": "lp"}}, "auth": {"constructor": 1}}'));
    expect(held.map((h) => h.key)).toEqual(['__proto__', 'auth.constructor']);
  });

  it('every string setting of the configuration is either a command setting or known to start nothing', () => {
    // a new setting that holds text must be sorted into one of the two lists before it ships
    const table = settingsTable();
    const strings = table.filter((r) => typeof r.value === 'string').map((r) => r.key);
    const heldStrings = Object.keys(COMMAND_SETTINGS).filter((k) => strings.includes(k));
    expect([...strings].sort()).toEqual([...heldStrings, ...PLAIN_STRING_SETTINGS].sort());
    // the one held setting that is no text: the switch that opens fetching by URL to the judge's own machine
    expect(Object.keys(COMMAND_SETTINGS).filter((k) => !strings.includes(k))).toEqual(['files.fetchAllowLoopback']);
    expect(table.find((r) => r.key === 'files.fetchAllowLoopback')?.value).toBe(false);
  });
});
