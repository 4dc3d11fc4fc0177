import type { Command } from './command.js';
import { dataAggregateCommand } from './commands/data-aggregate.js';
import { dataGenerateCommand } from './commands/data-generate.js';
import { dataVerifyCommand } from './commands/data-verify.js';
import { demoCommand } from './commands/demo.js';
import { importGeotiffCommand } from './commands/import-geotiff.js';
import { keysCreateCommand, keysDeactivateCommand, keysListCommand, keysUpdateCommand } from './commands/keys.js';
import { modelServiceCommand } from './commands/model-service.js';
import { precomputeCommand } from './commands/precompute.js';
import { serveCommand } from './commands/serve.js';
import { statsCommand } from './commands/stats.js';
import { workerCommand } from './commands/worker.js';

/**
 * Every `svc` sub-command, registered by path. Add a command by writing src/cli/commands/<name>.ts exporting a
 * `Command` and listing it here.
 */
export const COMMANDS: readonly Command[] = [
  dataGenerateCommand,
  importGeotiffCommand,
  dataVerifyCommand,
  dataAggregateCommand,
  keysCreateCommand,
  keysListCommand,
  keysUpdateCommand,
  keysDeactivateCommand,
  serveCommand,
  demoCommand,
  statsCommand,
  precomputeCommand,
  modelServiceCommand,
  workerCommand,
];
