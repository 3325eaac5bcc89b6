// One send's request and answer in Event Details (docs/deliveries.md, "What was sent and what came
// back"): the headers as sent with secrets masked, the body or why it is withheld with its SHA-256
// and size, and the receiver's headers. The receiver's body is never kept. The request is kept for
// a retention window, after which only when it expired is shown.
import type { EventDetails } from '../../api';
import { DateTime } from '../../format';
import { CopyButton } from '../CopyButton';

type Attempt = EventDetails['attemptHistory'][number];
type Header = { name: string; value: string };

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

/** A JSON body indented for reading; any other body as it was sent. */
function readableBody(body: string): { text: string; json: boolean } {
  try {
    return { text: JSON.stringify(JSON.parse(body), null, 2), json: true };
  } catch {
    return { text: body, json: false };
  }
}

/** The body as sent, pretty-printed when it is JSON; Copy copies the exact bytes sent, not the pretty form. */
function RequestBody({ body }: { body: string }) {
  const { text, json } = readableBody(body);
  return (
    <div className="snippet">
      <div className="snippet-header">
        <span className="snippet-title">{json ? 'Body (JSON, indented here)' : 'Body'}</span>
        <CopyButton text={body} label="Copy body" testId="attempt-request-body-copy" />
      </div>
      <pre className="code-block" data-testid="attempt-request-body" data-json={json}>
        {text}
      </pre>
    </div>
  );
}

function HeaderList({ headers, testId }: { headers: Header[]; testId: string }) {
  return (
    <dl className="header-list" data-testid={testId}>
      {headers.map((header, index) => (
        <div key={`${header.name}.${index}`} className="header-line">
          <dt>{header.name}:</dt>
          <dd className="break">{header.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function AttemptExchange({ attempt }: { attempt: Attempt }) {
  const { request, response } = attempt;
  return (
    <details className="attempt-exchange" data-testid="attempt-exchange">
      <summary>Request and response</summary>
      <div className="attempt-exchange-parts">
        <section>
          <h4>Request</h4>
          {attempt.requestExpiredAt ? (
            <p className="muted" data-testid="attempt-request-expired">
              Request details expired on <DateTime value={attempt.requestExpiredAt} />: the headers and body
              sent are kept for a limited time after each attempt.
            </p>
          ) : !request ? (
            <p className="muted" data-testid="attempt-request-none">
              Not recorded: no request was sent for this attempt, or it was made before requests were kept.
            </p>
          ) : (
            <>
              <HeaderList headers={request.headers} testId="attempt-request-headers" />
              {request.body !== null ? (
                <RequestBody body={request.body} />
              ) : (
                <p className="notice" data-testid="attempt-request-body-withheld">
                  {request.bodyWithheld?.message}
                </p>
              )}
              {request.bodySha256 !== null && request.bodyBytes !== null ? (
                <p className="hint" data-testid="attempt-request-digest">
                  {formatBytes(request.bodyBytes)} · SHA-256{' '}
                  <code className="break">{request.bodySha256}</code>
                </p>
              ) : null}
            </>
          )}
        </section>
        <section>
          <h4>Response</h4>
          {!response ? (
            <p className="muted" data-testid="attempt-response-none">
              No response headers: the receiver did not answer, or this attempt was made before they were
              kept.
            </p>
          ) : (
            <>
              <HeaderList headers={response.headers} testId="attempt-response-headers" />
              {response.omittedHeaders > 0 ? (
                <p className="hint">{response.omittedHeaders} more headers were not kept.</p>
              ) : null}
            </>
          )}
          <p className="hint">The receiver&rsquo;s body is never stored.</p>
        </section>
      </div>
    </details>
  );
}
