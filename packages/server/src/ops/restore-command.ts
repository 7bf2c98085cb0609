import { resolve } from 'node:path';
import { human } from './archive.js';
import { restore, type RestoreProgress } from './restore.js';
import { COMMAND_SETTINGS, printable, shown, type HeldSetting } from './restore-settings.js';

export const RESTORE_HELP = `
A backup is one file anybody could have made or altered, so restore takes
nothing from it on trust:
  - The archive is read twice: first every entry is checked against the
    manifest (name, size, SHA-256) with nothing written; then only the checked
    entries are written, none past the size the manifest declares. Links,
    folders, "..", and names a backup does not write are refused.
  - Settings of its judge.json that run a program or name files outside the
    data directory (${Object.keys(COMMAND_SETTINGS).join(', ')}) are shown and
    asked about on a terminal; elsewhere only --trust-commands restores them.
    Otherwise the new judge.json leaves them out, and says which on stderr.
  - A backup of a judge on PostgreSQL is restored into the new, empty database
    --database names (a database with any table is refused), in one
    transaction, and every table's rows are counted against the manifest.
  - --files-dir puts the stored files into that directory (the filesDir
    setting, which several servers may share) instead of NEW/files.
  - A restore killed half way leaves a folder NEW.restoring-*; the next restore
    into NEW removes it (never one whose restore still runs) and says so.`;

const listed = (held: HeldSetting[]) => held.map((h) => `  ${h.key} = ${shown(h.value)}\n    (${h.why})`).join('\n');

/** Asks on the terminal (stderr, so that --json output stays clean) whether to restore the settings that run programs. */
async function askOnTerminal(held: HeldSetting[]): Promise<boolean> {
  process.stderr.write(`The backup's judge.json has settings that run programs or name files outside the data directory:\n${listed(held)}\n`);
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message: 'Restore these settings as they are? (No: the new judge.json leaves them out)', default: false }, { output: process.stderr });
}

/** Checking and writing, on a terminal's one line, at most ten times a second. */
function progressLine(): { show(p: RestoreProgress): void; clear(): void } {
  if (!process.stderr.isTTY) return { show: () => {}, clear: () => {} };
  let last = 0;
  return {
    show(p) {
      if (Date.now() - last < 100) return;
      last = Date.now();
      const line = p.phase === 'checking' ? `checking: ${human(p.bytes)} of ${human(p.totalBytes)}` : `restoring: ${p.entries}/${p.totalEntries} files, ${human(p.bytes)} of ${human(p.totalBytes)}`;
      process.stderr.write(`\r${line}\x1b[K`);
    },
    clear: () => process.stderr.write('\r\x1b[K'),
  };
}

export async function restoreAction(file: string, o: { dataDir: string; database?: string; filesDir?: string; json?: boolean; trustCommands?: boolean }): Promise<void> {
  const line = o.json ? { show: () => {}, clear: () => {} } : progressLine();
  const onTerminal = process.stdin.isTTY && process.stderr.isTTY;
  const confirmCommands = o.trustCommands ? () => true : onTerminal ? async (held: HeldSetting[]) => (line.clear(), askOnTerminal(held)) : () => false;
  const dir = resolve(o.dataDir);
  const database = o.database ?? process.env.JUDGE_DATABASE;
  const s = await restore(resolve(file), dir, {
    ...(database ? { database } : {}),
    ...(o.filesDir !== undefined ? { filesDir: o.filesDir && resolve(o.filesDir) } : {}),
    confirmCommands,
    notice: (m) => (line.clear(), console.error(`judge: ${m}`)),
    progress: (p) => line.show(p),
  });
  line.clear();
  if (s.commandSettings.length) {
    const keys = s.commandSettings.map((h) => `  ${h.key} = ${shown(h.value)}`).join('\n');
    if (s.commandSettingsRestored) console.error(`judge: restored from the backup's judge.json, as confirmed, settings that run programs or name files outside the data directory:\n${keys}`);
    else console.error(`judge: left out of the new judge.json, because they run programs or name files outside the data directory:\n${keys}\nCheck them, then set them in ${dir}/judge.json by hand, or restore again with --trust-commands.`);
  }
  if (o.json) console.log(JSON.stringify(s));
  // the manifest's words are the archive's: escaped like the settings
  else console.log(`Restored the backup of ${printable(s.createdAt)} (judge ${printable(s.judgeVersion)}) into ${s.dataDir}: ${s.storedFiles} stored files, ${human(s.bytes)}. Start it with: judge serve --data-dir ${s.dataDir}${s.database ? ' --database <the same URL>' : ''}${s.filesDir ? ` --files-dir ${s.filesDir}` : ''}`);
}
