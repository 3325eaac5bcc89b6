/**
 * Runs a bench command's `main`: exit 0 once it resolves; its stack and exit 1 when it fails; 130
 * on Ctrl-C (the stack it started is stopped by the processes' own exit handlers).
 */
export function runMain(main: () => Promise<void>): void {
  process.on('SIGINT', () => process.exit(130));
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
