import { Help, type Command, type Option } from 'commander';
import { JSON_FAILURE_HELP, usageFailure } from './errors.js';

/** Whether this run was asked for JSON (the failure of a bad option comes before options are parsed). */
export const jsonRequested = (argv: readonly string[] = process.argv): boolean => argv.slice(2).includes('--json');

/** Marks the options a command cannot run without, which commander's help leaves unsaid. */
class JudgectlHelp extends Help {
  override optionDescription(option: Option): string {
    const text = super.optionDescription(option);
    return option.mandatory ? `${text} (required)` : text;
  }
}

function* everyCommand(c: Command): Generator<Command> {
  yield c;
  for (const s of c.commands) yield* everyCommand(s);
}

/**
 * What every command shares, applied once every command is registered (commander copies these
 * settings only to commands made after them): required options marked in --help, and a usage
 * error printed as one JSON object with --json instead of the text and the help after it.
 */
export function applyConventions(program: Command, json = jsonRequested()): void {
  program.addHelpText('after', `\n${JSON_FAILURE_HELP}`);
  for (const c of everyCommand(program)) {
    c.createHelp = () => Object.assign(new JudgectlHelp(), c.configureHelp());
    if (json) {
      c.showHelpAfterError(false);
      c.configureOutput({ outputError: (message) => process.stderr.write(`${JSON.stringify(usageFailure(message))}\n`) });
    }
  }
}
