// Every port the embedded stack listens on, by its setting (src/config.ts). A second stack beside
// one already running (test/embedded-stack.test.ts, `npm run screenshots`) moves each to a free
// port; a port setting the config gains and this list lacks fails stack-ports.test.ts.
export const STACK_PORT_SETTINGS = [
  'PORT',
  'EMBEDDED_POSTGRES_PORT',
  'TEMPORAL_PORT',
  'TEMPORAL_UI_PORT',
  'METRICS_PORT',
  'MAIL_CATCHER_SMTP_PORT',
  'MAIL_CATCHER_UI_PORT',
] as const;

export type StackPortSetting = (typeof STACK_PORT_SETTINGS)[number];

/** Each port setting on its own free port (as the environment carries it: text). */
export async function onFreePorts(
  freePort: () => Promise<number>,
): Promise<Record<StackPortSetting, string>> {
  const env: Partial<Record<StackPortSetting, string>> = {};
  for (const setting of STACK_PORT_SETTINGS) env[setting] = String(await freePort());
  return env as Record<StackPortSetting, string>;
}
