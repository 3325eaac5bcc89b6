// One operation of the OpenAPI document (or one event of its `webhooks` section) as the API
// reference draws it: the call, an example request, parameters, body and responses.
import type { ReactNode } from 'react';
import type { OpenApiDocument, OpenApiOperation, OpenApiParameter } from '../../api';
import { curlExample } from '../../examples/curl-example';
import { CopyButton } from '../CopyButton';
import { RichText, SchemaView } from '../OpenApi';
import { constraints, refName, schemaAnchor, shortType, typeLabel } from './schema-labels';

export const operationAnchor = (method: string, path: string) =>
  `op-${method}-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

export const eventAnchor = (event: string) => `event-${event.replace(/[^A-Za-z0-9]+/g, '-')}`;

/** How to call the operation: where the document's servers are, and the API key header's name. */
export type CallTarget = { baseUrl: string; keyHeader: string };

/** The response description without its "customCodes: …" sentence (the codes are listed apart). */
function responseText(description: string | undefined, codes: string[] | undefined): string | undefined {
  if (!description || !codes?.length) return description;
  return description.replace(/\s*customCodes:[\s\S]*$/, '').replace(/\.$/, '') || undefined;
}

/**
 * An operation of `paths` (with a curl example when `call` says where to send it), or an entry of
 * the `webhooks` section: `path` is then the event's name, and the request is the service's POST
 * to a webhook URL.
 */
export function OperationView({
  method,
  path,
  operation,
  document,
  call,
  event = false,
}: {
  method: string;
  path: string;
  operation: OpenApiOperation;
  document: OpenApiDocument;
  call?: CallTarget;
  event?: boolean;
}) {
  const schemas = document.components?.schemas ?? {};
  const publicOperation = Array.isArray(operation.security) && operation.security.length === 0;
  const body = operation.requestBody?.content?.['application/json'];
  const parameters = operation.parameters ?? [];
  const curl = call && !event ? curlExample({ method, path, operation, ...call }) : undefined;
  return (
    <article
      className="operation"
      id={event ? eventAnchor(path) : operationAnchor(method, path)}
      data-testid={event ? 'api-event' : 'api-operation'}
      data-method={method.toUpperCase()}
      data-path={event ? undefined : path}
      data-event={event ? path : undefined}
    >
      <header className="operation-header">
        <span className={`method method-${method}`}>{method.toUpperCase()}</span>
        <code className="operation-path" data-testid="api-operation-path">
          {path}
        </code>
        <span className="operation-summary" data-testid="api-operation-summary">
          {event ? 'to your webhook URL' : operation.summary}
        </span>
        {publicOperation && !event ? <span className="tag tag-plain">No key needed</span> : null}
      </header>
      {operation.description ? (
        <p className="operation-description">
          <RichText text={operation.description} />
        </p>
      ) : null}

      {curl ? (
        <Section title="Example request">
          <div className="curl-example" data-testid="api-curl">
            <pre className="code-block" data-testid="api-curl-command">
              {curl}
            </pre>
            <CopyButton text={curl} label="Copy" testId="api-curl-copy" />
          </div>
        </Section>
      ) : null}

      {parameters.length ? (
        <Section title={event ? 'Headers' : 'Parameters'}>
          <ParameterTable parameters={parameters} />
        </Section>
      ) : null}

      {operation.requestBody ? (
        <Section
          title={event ? 'Body' : `Request body${operation.requestBody.required ? '' : ' (optional)'}`}
        >
          {body?.schema ? <SchemaView schema={body.schema} schemas={schemas} /> : null}
          {body?.example !== undefined ? (
            <details className="example" data-testid="api-example">
              <summary>{event ? 'Example payload' : 'Example'}</summary>
              <pre className="code-block" data-testid="api-example-body">
                {JSON.stringify(body.example, null, 2)}
              </pre>
            </details>
          ) : null}
        </Section>
      ) : null}

      <Section title={event ? 'Your answer' : 'Responses'}>
        <table className="table table-compact responses-table">
          <tbody>
            {Object.entries(operation.responses ?? {}).map(([status, response]) => {
              const codes = response['x-custom-codes'];
              const schema = response.content?.['application/json']?.schema;
              return (
                <tr key={status} data-testid="api-response" data-status={status}>
                  <td className="response-status">
                    <span className={`status-code status-code-${status[0]}xx`}>{status}</span>
                  </td>
                  <td>
                    <RichText text={responseText(response.description, codes)} />
                    {schema ? (
                      <div className="response-schema">
                        <span className="muted">Body: </span>
                        <code>{typeLabel(schema)}</code>
                        {typeof schema.$ref === 'string' ? (
                          <>
                            {' '}
                            <a href={`#${schemaAnchor(refName(schema.$ref))}`}>(schema)</a>
                          </>
                        ) : null}
                      </div>
                    ) : null}
                    {codes?.length ? (
                      <div className="custom-codes" data-testid="api-custom-codes">
                        <span className="muted">customCodes: </span>
                        {codes.map((code) => (
                          <code key={code} className="custom-code" data-testid="api-custom-code">
                            {code}
                          </code>
                        ))}
                      </div>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Section>
    </article>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="operation-section">
      <h4>{title}</h4>
      {children}
    </section>
  );
}

function ParameterTable({ parameters }: { parameters: OpenApiParameter[] }) {
  return (
    <table className="table table-compact">
      <thead>
        <tr>
          <th>Name</th>
          <th>In</th>
          <th>Type</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        {parameters.map((parameter) => {
          const notes = parameter.schema ? constraints(parameter.schema) : [];
          return (
            <tr
              key={`${parameter.in}:${parameter.name}`}
              data-testid="api-parameter"
              data-name={parameter.name}
            >
              <td>
                <code>{parameter.name}</code>
                {parameter.required ? <span className="required"> required</span> : null}
              </td>
              <td>{parameter.in}</td>
              <td>
                <code>{parameter.schema ? shortType(parameter.schema) : 'string'}</code>
              </td>
              <td>
                <RichText text={parameter.description} />
                {notes.length ? <div className="hint">{notes.join(' · ')}</div> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
