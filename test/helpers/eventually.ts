/**
 * Waits (up to 15 s, or `timeoutMs`) until `check` holds: for states that follow a server answer.
 * Generous on purpose: a loaded 2-core CI machine is slow, and tests assert states, not timings.
 */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
