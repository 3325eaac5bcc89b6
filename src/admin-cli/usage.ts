// The administration CLI's usage text and help: loaded on every call, so it imports nothing heavy
// (`<command> --help` answers without loading the service).

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  create-workspace --name NAME --admin-email EMAIL [--admin-password PASSWORD] [--admin-name NAME]
      Creates a workspace with its built-in roles (Admin, Member, Viewer) and its first Admin.
      Without --admin-password a password is generated and printed once.
  add-member --workspace WORKSPACE_ID_OR_NAME --email EMAIL [--role ROLE_NAME] [--name NAME] [--password PASSWORD]
      Adds a member (default role: Member). A new user gets the given or a generated password.
  reset-password --email EMAIL
      Sets a new generated password for the account, printed once; the account counts as verified,
      every one of its sessions ends and its sign-in lockout is cleared.
  messaging connect --workspace WORKSPACE_ID_OR_NAME --provider NAME --account-id ID --display-name NAME
      Connects a messaging account and prints its id and signing secret (shown once).
  messaging simulate --account CONNECTED_ACCOUNT_ID [--event messaging.… ...] [--replay] [--url BASE_URL]
      Plays the provider: signs and sends each kind of activity (or the --event ones) to the
      service's provider endpoint, so every messaging event can be seen without a real provider.
  import-legacy-webhooks FILE --workspace WORKSPACE_ID_OR_NAME
      Imports older webhooks (retired events, several record sources) and their delivery records
      from a JSON file (docs/messaging.md).
  listen --forward-to LOCAL_URL [--events EVENT,…] [--api-key KEY] [--url BASE_URL]
      Receives the workspace's deliveries on this machine, without a tunnel: opens a stream from the
      service (a temporary endpoint of the key's workspace), prints its signing secret, POSTs each
      delivery to LOCAL_URL exactly as a webhook would get it, prints the local answer, and
      reconnects after a dropped stream (docs/listen.md). The key may come from CRM_API_KEY;
      BASE_URL defaults to PUBLIC_URL. Ctrl-C ends it.
  help [COMMAND]
      Shows this text, or one command's part of it (as COMMAND --help does).`;

export const COMMANDS = [
  'create-workspace',
  'add-member',
  'reset-password',
  'messaging',
  'import-legacy-webhooks',
  'listen',
];

/**
 * The part of USAGE about `command` (its lines and their indented description), or all of it for
 * another word: what `<command> --help` and `help <command>` print.
 */
export function helpOf(command: string | undefined): string {
  if (!command || !COMMANDS.includes(command)) return USAGE;
  const lines = USAGE.split('\n');
  const block: string[] = [];
  let inside = false;
  for (const line of lines) {
    if (/^ {2}\S/.test(line)) inside = line.startsWith(`  ${command} `);
    if (inside) block.push(line);
  }
  return `Usage: npm run cli -- <command> [options]\n\n${block.join('\n')}`;
}

/** `--help` or `-h` anywhere among a command's arguments asks for its help, whatever else is there. */
export const asksForHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

/** A wrong call: printed with the usage, exit code 1. */
export class UsageError extends Error {}
