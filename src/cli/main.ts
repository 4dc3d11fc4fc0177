import { ServiceError } from '../errors.js';
import type { Command } from './command.js';
import { COMMAND_INDEX, loadAllCommands, type CommandEntry } from './command-index.js';
import { UsageError } from './usage-error.js';

/** Finds the command whose path is the longest prefix of argv, and loads it. */
async function findCommand(argv: string[]): Promise<{ command: Command; rest: string[] } | undefined> {
  let best: CommandEntry | undefined;
  for (const entry of COMMAND_INDEX) {
    const n = entry.path.length;
    if (n <= argv.length && entry.path.every((word, i) => argv[i] === word)) {
      if (!best || n > best.path.length) best = entry;
    }
  }
  return best ? { command: await best.load(), rest: argv.slice(best.path.length) } : undefined;
}

/** `svc help`: every command with its summary (the one time every command is loaded). */
async function helpText(): Promise<string> {
  const commands = await loadAllCommands();
  const width = Math.max(...commands.map((c) => c.path.join(' ').length));
  const lines = commands.map((c) => `  svc ${c.path.join(' ').padEnd(width)}  ${c.summary}`);
  return ['Usage: svc <command> [options]', '', 'Commands:', ...lines, '', 'Run `svc <command> --help` for options.'].join('\n');
}

/** The synopsis of a command: the first paragraph of its usage text (the `Usage: svc …` lines). */
export function synopsis(usage: string): string {
  return usage.split(/\n[ \t]*\n/)[0];
}

/** Whether `err` is `parseArgs` refusing the command line (an unknown option, an option without its value, …). */
function isParseArgsError(err: unknown): err is TypeError {
  return err instanceof TypeError && String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_');
}

/**
 * CLI entry: dispatches to a command and turns errors into a message and an exit code. Exit codes: 0 done; 2 a
 * usage error or input the command refuses (a `validation_error`: a bad option value, a malformed input file, a city
 * without the data asked for); 1 any other failure (missing or damaged data, outside coverage, an unreachable
 * service). A usage error (`UsageError`, or `parseArgs` refusing an option) prints the message, the command's
 * synopsis and a pointer to its `--help`; every other error prints the message and the pointer only, never the
 * whole usage text (README.md, Command line).
 */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    console.log(await helpText());
    return argv.length === 0 ? 2 : 0;
  }
  const found = await findCommand(argv);
  if (!found) {
    console.error(`svc: unknown command '${argv.join(' ')}'.\nRun 'svc help' for the list of commands.`);
    return 2;
  }
  const { command } = found;
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  const name = `svc ${command.path.join(' ')}`;
  const pointer = `Run '${name} --help' for usage.`;
  try {
    return await command.run(found.rest);
  } catch (err) {
    if (err instanceof UsageError || isParseArgsError(err)) {
      console.error(`${name}: ${err.message}\n\n${synopsis(command.usage)}\n\n${pointer}`);
      return 2;
    }
    if (err instanceof ServiceError) {
      console.error(`${name}: ${err.message}\n${pointer}`);
      return err.code === 'validation_error' ? 2 : 1;
    }
    throw err;
  }
}
