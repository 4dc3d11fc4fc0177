/**
 * Every `svc` sub-command by path, loaded only when it runs: a command's module brings its own dependencies (the HTTP
 * server, the PDF renderer, the compute pool), and `svc data verify` need not load the web server to start. Add a
 * command by writing src/cli/commands/<name>.ts exporting a `Command` and listing it here with the same path
 * (test/cli/command-index.test.ts keeps the two in step).
 */
import type { Command } from './command.js';

/** A command as the index knows it before loading it. */
export interface CommandEntry {
  /** Words after `svc` that select the command (the command's own `path`). */
  readonly path: readonly string[];
  load(): Promise<Command>;
}

export const COMMAND_INDEX: readonly CommandEntry[] = [
  { path: ['data', 'generate'], load: async () => (await import('./commands/data-generate.js')).dataGenerateCommand },
  { path: ['data', 'import-geotiff'], load: async () => (await import('./commands/import-geotiff.js')).importGeotiffCommand },
  { path: ['data', 'verify'], load: async () => (await import('./commands/data-verify.js')).dataVerifyCommand },
  { path: ['data', 'aggregate'], load: async () => (await import('./commands/data-aggregate.js')).dataAggregateCommand },
  { path: ['keys', 'create'], load: async () => (await import('./commands/keys.js')).keysCreateCommand },
  { path: ['keys', 'list'], load: async () => (await import('./commands/keys.js')).keysListCommand },
  { path: ['keys', 'update'], load: async () => (await import('./commands/keys.js')).keysUpdateCommand },
  { path: ['keys', 'deactivate'], load: async () => (await import('./commands/keys.js')).keysDeactivateCommand },
  { path: ['serve'], load: async () => (await import('./commands/serve.js')).serveCommand },
  { path: ['demo'], load: async () => (await import('./commands/demo.js')).demoCommand },
  { path: ['stats'], load: async () => (await import('./commands/stats.js')).statsCommand },
  { path: ['atlas', 'export'], load: async () => (await import('./commands/atlas-export.js')).atlasExportCommand },
  { path: ['precompute'], load: async () => (await import('./commands/precompute.js')).precomputeCommand },
  { path: ['model-service'], load: async () => (await import('./commands/model-service.js')).modelServiceCommand },
  { path: ['addresses', 'import'], load: async () => (await import('./commands/addresses-import.js')).addressesImportCommand },
  { path: ['worker'], load: async () => (await import('./commands/worker.js')).workerCommand },
];

/** Loads every command of the index, in its order (`svc help`, and tests that want them all). */
export function loadAllCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_INDEX.map((entry) => entry.load()));
}
