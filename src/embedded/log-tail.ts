import { readFileSync } from 'node:fs';

/** The last lines of an embedded server's log, for an error that says why it did not start. */
export function logTail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
