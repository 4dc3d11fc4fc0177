import { ValidationError } from '../errors.js';

/**
 * A command line a command cannot run as written: an unknown option, a missing option or argument, a stray argument,
 * options that exclude each other. `svc` answers it with the message, the command's synopsis and a pointer to its
 * `--help` (exit code 2), where any other error — a bad option value, missing or damaged data, a malformed input
 * file — gets only the message and the pointer.
 */
export class UsageError extends ValidationError {}
