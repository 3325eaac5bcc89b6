// `listen`: a workspace's deliveries, forwarded to a local URL (docs/listen.md). Talks to the
// service over HTTP only (no database): the stream, and one small REST call per local answer.

/** What `listen` is given (src/admin-cli/commands.ts reads it from the command line). */
export interface ListenOptions {
  /** The service, e.g. http://localhost:3000. */
  baseUrl: string;
  apiKey: string;
  forwardTo: string;
  /** Events of the catalog; every one when left out. */
  events?: string[];
  say: (line: string) => void;
  /** Ends the command (Ctrl-C). */
  signal?: AbortSignal;
}

/** A refusal that reconnecting cannot change (a wrong key, filter or permission): the command ends. */
export class ListenRefusedError extends Error {}

interface StreamEvent {
  name: string;
  id?: string;
  data: string;
}

/** Below the service's 5 s: the local answer must reach it before the delivery times out there. */
const LOCAL_TIMEOUT_MS = 4_500;
const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000];

/**
 * Opens the stream, forwards each delivery to `forwardTo` exactly as received (headers and body),
 * reports the local answer, and reconnects with backoff when the stream drops, resuming the same
 * session so that the deliveries made meanwhile are sent again (or named when they cannot be).
 */
export async function listen(options: ListenOptions): Promise<void> {
  const { say, signal } = options;
  const session: { id?: string } = {};
  let failures = 0;
  while (!signal?.aborted) {
    try {
      const response = await openStream(options, session.id);
      if (response.status === 404 && session.id) {
        say(
          `Session ${session.id} ended while disconnected (its deliveries stay in the log); opening a new one.`,
        );
        session.id = undefined;
        continue;
      }
      if (!response.ok || !response.body) await refusal(response);
      failures = 0;
      for await (const event of serverSentEvents(response.body!)) onEvent(options, session, event);
      if (!signal?.aborted) say('The stream closed.');
    } catch (error) {
      if (signal?.aborted) return;
      if (error instanceof ListenRefusedError) throw error;
      say(`The stream was lost (${reasonOf(error)}).`);
    }
    if (signal?.aborted) return;
    failures = Math.min(failures + 1, BACKOFF_MS.length);
    const pause = BACKOFF_MS[failures - 1]!;
    say(`Reconnecting in ${pause / 1000} s…`);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

function openStream(options: ListenOptions, sessionId: string | undefined): Promise<Response> {
  const url = new URL('/api/v1/listen', options.baseUrl);
  if (sessionId) url.searchParams.set('session', sessionId);
  else if (options.events) url.searchParams.set('events', options.events.join(','));
  return fetch(url, {
    headers: { 'x-api-key': options.apiKey, accept: 'text/event-stream' },
    signal: options.signal,
  });
}

/**
 * Throws what the service said: refusals end the command, a busy or failing service is retried. The
 * workspace's bound of sessions ends it too: a place frees only when a person ends a session
 * (docs/listen.md#how-many-sessions-at-once), so retrying would only hold this terminal waiting.
 */
async function refusal(response: Response): Promise<never> {
  const text = await response.text();
  let message = text;
  let codes: (string | undefined)[] = [];
  try {
    const { error } = JSON.parse(text) as { error: { issues: { message: string; customCode?: string }[] } };
    codes = error.issues.map((issue) => issue.customCode);
    message = error.issues
      .map((issue) => `${issue.message}${issue.customCode ? ` [${issue.customCode}]` : ''}`)
      .join('; ');
  } catch {
    // Not the service's error body: shown as it came.
  }
  const atSessionLimit = codes.includes('listenSessionLimit');
  const retried = (response.status === 429 && !atSessionLimit) || response.status >= 500;
  const Failure = retried ? Error : ListenRefusedError;
  throw new Failure(`${response.status}: ${message || response.statusText}`);
}

/** Acts on one event of the stream (the `session` event names the session). */
function onEvent(options: ListenOptions, session: { id?: string }, event: StreamEvent): void {
  const { say } = options;
  if (event.name === 'session') {
    const opened = JSON.parse(event.data) as { sessionId: string; events: string[]; secret?: string };
    session.id = opened.sessionId;
    if (opened.secret) {
      say(`Session ${opened.sessionId}: forwarding ${opened.events.length} event(s) to ${options.forwardTo}`);
      say(`Signing secret of this session: ${opened.secret}`);
    } else say(`Resumed session ${opened.sessionId}.`);
  }
  if (event.name === 'resumed') {
    const caughtUp = JSON.parse(event.data) as {
      resent: string[];
      notResent: { deliveryId: string; reason: string }[];
    };
    say(`Caught up: ${caughtUp.resent.length} delivery(ies) made while disconnected are sent again.`);
    for (const missed of caughtUp.notResent) say(`Not sent again: ${missed.deliveryId} (${missed.reason})`);
  }
  if (event.name === 'delivery' && session.id)
    void forward(options, session.id, JSON.parse(event.data) as Forwarded);
}

interface Forwarded {
  deliveryId: string;
  headers: Record<string, string>;
  body: string;
}

/** POSTs one delivery to the local URL, prints the answer and tells the service. */
async function forward(options: ListenOptions, sessionId: string, delivery: Forwarded): Promise<void> {
  const started = Date.now();
  let answer: { statusCode: number; statusText: string } | { error: string };
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body,
      signal: AbortSignal.timeout(LOCAL_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    answer = { statusCode: response.status, statusText: response.statusText };
  } catch (error) {
    answer = { error: reasonOf(error) };
  }
  const ms = Date.now() - started;
  const event = delivery.headers['X-Webhook-Event'] ?? '';
  const outcome =
    'error' in answer ? `failed: ${answer.error}` : `${answer.statusCode} ${answer.statusText}`.trim();
  options.say(`${new Date().toISOString()}  ${event}  ${delivery.deliveryId}  → ${outcome} (${ms} ms)`);
  try {
    await fetch(new URL(`/api/v1/listen/${sessionId}/answers`, options.baseUrl), {
      method: 'POST',
      headers: { 'x-api-key': options.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ deliveryId: delivery.deliveryId, ...answer }),
    });
  } catch {
    // The service will time the delivery out and retry it: nothing is lost.
  }
}

/** The events of a `text/event-stream` body (comments and heartbeats' empty data included as named). */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: StreamEvent = { name: 'message', data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const [field, value] = [line.slice(0, colon), line.slice(colon + 1).replace(/^ /, '')];
        if (field === 'event') event.name = value;
        else if (field === 'id') event.id = value;
        else if (field === 'data') event.data += event.data ? `\n${value}` : value;
      }
      yield event;
    }
  }
}

/** What failed, in a word a person reads: fetch's own cause (ECONNREFUSED, …) rather than "fetch failed". */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? error.cause.message : error.message;
}
