import { ServiceError } from '../errors.js';
import type { Command } from './command.js';
import { COMMAND_INDEX, type CommandEntry } from './command-index.js';

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
  const commands = await Promise.all(COMMAND_INDEX.map((entry) => entry.load()));
  const width = Math.max(...commands.map((c) => c.path.join(' ').length));
  const lines = commands.map((c) => `  svc ${c.path.join(' ').padEnd(width)}  ${c.summary}`);
  return ['Usage: svc <command> [options]', '', 'Commands:', ...lines, '', 'Run `svc <command> --help` for options.'].join('\n');
}

/** CLI entry: dispatches to a command and turns errors into a message and a non-zero exit code. */
export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    console.log(await helpText());
    return argv.length === 0 ? 2 : 0;
  }
  const found = await findCommand(argv);
  if (!found) {
    console.error(`svc: unknown command '${argv.join(' ')}'\n\n${await helpText()}`);
    return 2;
  }
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    console.log(found.command.usage);
    return 0;
  }
  try {
    return await found.command.run(found.rest);
  } catch (err) {
    if (err instanceof ServiceError) {
      console.error(`svc ${found.command.path.join(' ')}: ${err.message}`);
      if (err.code === 'validation_error') console.error(`\n${found.command.usage}`);
      return err.code === 'validation_error' ? 2 : 1;
    }
    if (err instanceof TypeError && String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS_')) {
      console.error(`svc ${found.command.path.join(' ')}: ${err.message}\n\n${found.command.usage}`);
      return 2;
    }
    throw err;
  }
}
