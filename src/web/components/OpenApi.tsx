// A small reader of the OpenAPI 3.1 document (GET /api/v1/openapi.json): operations with their
// parameters, request body schema and responses, and JSON Schemas as nested property tables.
// No third-party renderer: the document of this service uses a handful of JSON Schema keywords.
import type { ReactNode } from 'react';
import type { JsonSchema, OpenApiDocument, OpenApiOperation, OpenApiParameter } from '../api';
import { curlExample } from '../examples/curl-example';
import { CopyButton } from './CopyButton';

type Schemas = Record<string, JsonSchema>;

/** How deep nested schemas are drawn before they become a name only. */
const MAX_DEPTH = 4;

/** Text with `code` spans, as the document's descriptions are written. */
export function RichText({ text }: { text: string | undefined }) {
  if (!text) return null;
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, index) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
          <code key={index}>{part.slice(1, -1)}</code>
        ) : (
          <span key={index} className="pre-line">
            {part}
          </span>
        ),
      )}
    </>
  );
}

const refName = (ref: string) => ref.replace(/^#\/components\/schemas\//, '');

export function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function asSchemas(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? (value as JsonSchema[]) : [];
}

/** A one-line type: `string (uuid)`, `array of Webhook`, `string | null`, `"a" | "b"`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum))
    return (schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(' | ');
  const union = asSchemas(schema.anyOf).length ? asSchemas(schema.anyOf) : asSchemas(schema.oneOf);
  if (union.length) return union.map(typeLabel).join(' | ');
  if (asSchemas(schema.allOf).length) return asSchemas(schema.allOf).map(typeLabel).join(' & ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  return types
    .map((type) => {
      if (type === 'array') return `array of ${typeLabel(schema.items as JsonSchema | undefined)}`;
      if (
        type === 'object' &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === 'object'
      ) {
        return `object of ${typeLabel(schema.additionalProperties as JsonSchema)}`;
      }
      if (type === 'string' && typeof schema.format === 'string') return `string (${schema.format})`;
      return type ?? 'any';
    })
    .join(' | ');
}

/** Limits and defaults worth reading: `1–200`, `max 500 characters`, `default 50`. */
function constraints(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const { minimum, maximum, minLength, maxLength, minItems, maxItems } = schema as Record<string, unknown>;
  if (typeof minimum === 'number' && typeof maximum === 'number' && maximum < 2 ** 40) {
    notes.push(`${minimum}–${maximum}`);
  } else if (typeof minimum === 'number') {
    notes.push(`≥ ${minimum}`);
  } else if (typeof maximum === 'number') {
    notes.push(`≤ ${maximum}`);
  }
  if (typeof minLength === 'number' && minLength > 0) notes.push(`at least ${minLength} characters`);
  if (typeof maxLength === 'number') notes.push(`at most ${maxLength} characters`);
  if (typeof minItems === 'number' && minItems > 0) notes.push(`at least ${minItems} items`);
  if (typeof maxItems === 'number') notes.push(`at most ${maxItems} items`);
  if ('default' in schema) notes.push(`default ${JSON.stringify(schema.default)}`);
  return notes;
}

/** The object schema to draw as a property table, looking through arrays and nullable unions. */
function objectOf(schema: JsonSchema, schemas: Schemas, seen: ReadonlySet<string>): JsonSchema | undefined {
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    if (seen.has(name)) return undefined;
    const target = schemas[name];
    return target ? objectOf(target, schemas, new Set([...seen, name])) : undefined;
  }
  if (schema.properties && typeof schema.properties === 'object') return schema;
  if (schema.items && typeof schema.items === 'object')
    return objectOf(schema.items as JsonSchema, schemas, seen);
  const union = [...asSchemas(schema.anyOf), ...asSchemas(schema.oneOf)].filter(
    (part) => part.type !== 'null',
  );
  if (union.length === 1 && union[0]) return objectOf(union[0], schemas, seen);
  return undefined;
}

/** A schema: its type line, and the properties of an object as a table (nested objects inside). */
export function SchemaView({
  schema,
  schemas,
  depth = 0,
  seen = new Set<string>(),
}: {
  schema: JsonSchema;
  schemas: Schemas;
  depth?: number;
  seen?: ReadonlySet<string>;
}) {
  const resolved = typeof schema.$ref === 'string' ? schemas[refName(schema.$ref)] : undefined;
  const name = typeof schema.$ref === 'string' ? refName(schema.$ref) : undefined;
  const nextSeen = name ? new Set([...seen, name]) : seen;
  const target = resolved ?? schema;
  const object = name && seen.has(name) ? undefined : objectOf(target, schemas, nextSeen);
  const union = [...asSchemas(target.anyOf), ...asSchemas(target.oneOf)];
  return (
    <div className="schema" data-testid="schema">
      <div className="schema-type">
        {name ? (
          <a href={`#${schemaAnchor(name)}`} className="schema-name">
            {name}
          </a>
        ) : (
          <code>{typeLabel(target)}</code>
        )}
        {name ? <code className="muted"> {typeLabel(target)}</code> : null}
        {typeof target.description === 'string' ? (
          <span className="muted">
            {' '}
            — <RichText text={target.description} />
          </span>
        ) : null}
      </div>
      {object && depth < MAX_DEPTH ? (
        <PropertyTable schema={object} schemas={schemas} depth={depth} seen={nextSeen} />
      ) : !object &&
        union.length > 1 &&
        depth < MAX_DEPTH &&
        union.some((part) => objectOf(part, schemas, nextSeen)) ? (
        <ul className="schema-union">
          {union.map((part, index) => (
            <li key={index}>
              <span className="muted">one of: </span>
              <SchemaView schema={part} schemas={schemas} depth={depth + 1} seen={nextSeen} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function PropertyTable({
  schema,
  schemas,
  depth,
  seen,
}: {
  schema: JsonSchema;
  schemas: Schemas;
  depth: number;
  seen: ReadonlySet<string>;
}) {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const entries = Object.entries(properties);
  if (entries.length === 0) return <p className="muted">An object with no fixed properties.</p>;
  return (
    <table className="table table-compact schema-table">
      <tbody>
        {entries.map(([property, value]) => {
          const nested = objectOf(value, schemas, seen);
          const notes = constraints(value);
          return (
            <tr key={property} data-testid="schema-property" data-property={property}>
              <td className="schema-property">
                <code>{property}</code>
                {required.has(property) ? <span className="required"> required</span> : null}
              </td>
              <td>
                {nested && depth + 1 < MAX_DEPTH ? (
                  <SchemaView schema={value} schemas={schemas} depth={depth + 1} seen={seen} />
                ) : (
                  <>
                    <code>{typeLabel(value)}</code>
                    {typeof value.description === 'string' ? (
                      <div className="muted">
                        <RichText text={value.description} />
                      </div>
                    ) : null}
                  </>
                )}
                {notes.length ? <div className="hint">{notes.join(' · ')}</div> : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

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

/** Query parameters: date-or-time unions read as such, without their long patterns. */
function shortType(schema: JsonSchema): string {
  const formats = [...asSchemas(schema.anyOf), ...asSchemas(schema.oneOf)]
    .map((part) => part.format)
    .filter((format): format is string => typeof format === 'string');
  return formats.length > 1 ? `string (${formats.join(' or ')})` : typeLabel(schema);
}
