/**
 * What a flooding client sees, for the tests of quotas and throttles: requests sent one after
 * another, or by many clients each sending again the moment it is answered.
 */

/** `count` requests one after another: every status, and the first refusal (429) unread. */
export async function inARow(
  count: number,
  send: () => Promise<Response>,
): Promise<{ statuses: number[]; refused?: Response }> {
  const statuses: number[] = [];
  let refused: Response | undefined;
  for (let i = 0; i < count; i++) {
    const response = await send();
    statuses.push(response.status);
    if (response.status === 429) refused ??= response;
    else await response.arrayBuffer();
  }
  return { statuses, refused };
}

/** `clients` clients, each sending again the moment it is answered, for `ms`: every status. */
export async function floodFor(
  ms: number,
  clients: number,
  send: () => Promise<{ status: number }>,
): Promise<number[]> {
  const until = Date.now() + ms;
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) statuses.push((await send()).status);
    }),
  );
  return statuses;
}

/** The spec's body of a 429 refusal by the limit `customCode`, whose message contains `says`. */
export const rateLimitBody = (customCode: string, says: string) => ({
  error: {
    kind: 'rate_limit',
    retryable: true,
    issues: [{ code: 'rate_limit', path: [], message: expect.stringContaining(says), customCode }],
  },
});

/** The spec's body of a request over a quota, whose message names `whose` ("this session"). */
export const quotaRefusalBody = (whose: string) =>
  rateLimitBody('requestQuotaExceeded', `Too many requests for ${whose}`);
