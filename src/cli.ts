// `npm run cli -- <command> [options]`: administration for self-hosting. Works against
// DATABASE_URL, or the embedded PostgreSQL under DATA_DIR when DATABASE_URL is unset.
// This entry parses the call and prints help; src/admin-cli/commands.ts holds the commands.
import { ConfigError } from './config';
import { AppError } from './shared/app-error';
import { asksForHelp, COMMANDS, helpOf, USAGE, UsageError } from './admin-cli/usage';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  // Before any option is parsed, so `<command> --help` prints help only, and exits 0.
  if (command === 'help' || (command && COMMANDS.includes(command) && asksForHelp(args))) {
    say(helpOf(command === 'help' ? args[0] : command));
    return;
  }
  if (command === undefined || command === '--help' || command === '-h') {
    say(USAGE);
    return;
  }
  if (!COMMANDS.includes(command)) throw new UsageError(`Unknown command "${command}".`);
  // The service's modules load only for a command that runs (about a second of CPU).
  const { runCommand } = await import('./admin-cli/commands.js');
  await runCommand(command, args);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) process.stderr.write(`${error.message}\n\n${USAGE}\n`);
  else if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else if (error instanceof AppError) {
    const details = error.issues.map(
      (issue) =>
        `  ${issue.path.join('.') || '(file)'}: ${issue.message}${issue.customCode ? ` [${issue.customCode}]` : ''}`,
    );
    process.stderr.write(
      `${[error.message, ...details.slice(error.issues.length > 1 ? 0 : 1)].join('\n')}\n`,
    );
  } else if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
  } else process.stderr.write(`Failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
