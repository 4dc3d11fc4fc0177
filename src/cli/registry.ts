import type { Command } from './command.js';

/**
 * Every `svc` sub-command, registered by path. Add a command by writing src/cli/commands/<name>.ts exporting a
 * `Command` and listing it here.
 */
export const COMMANDS: readonly Command[] = [];
