/** A fault in a register file, and the progress callback of a read (shared by the CSV and zip readers). */
import { ValidationError } from '../errors.js';

/** A fault in a register file: which file, which line (1-based, the header is line 1; 0: the archive itself) and why. */
export class RegisterFileError extends ValidationError {
  constructor(readonly file: string, readonly line: number, readonly reason: string) {
    super(line > 0 ? `${file}, line ${line}: ${reason}` : `${file}: ${reason}`);
  }
}

/** Progress of a read: bytes of the file on disk consumed since the last call. */
export type BytesRead = (bytes: number) => void;
