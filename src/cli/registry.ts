/**
 * Every `svc` sub-command, loaded: the commands of the index (command-index.ts), in its order. The CLI itself loads
 * only the command it runs; this list is for what wants them all at once (help, tests).
 */
import type { Command } from './command.js';
import { COMMAND_INDEX } from './command-index.js';

/** Loads every command of the index. */
function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_INDEX.map((entry) => entry.load()));
}

export const COMMANDS: readonly Command[] = await loadCommands();
