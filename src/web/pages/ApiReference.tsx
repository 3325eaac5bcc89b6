// API reference (everyone signed in): the REST API's OpenAPI document (GET /api/v1/openapi.json)
// as readable pages: the operations grouped by tag, each with method, path, summary, description,
// a curl example, parameters, request body schema and responses (status, description,
// customCodes), then the events a webhook receives (the `webhooks` section) and the shared
// schemas. A filter narrows the operations by path, summary or customCode, and the events by name.
import { useEffect, useState } from 'react';
import { api, errorMessage, type OpenApiDocument, type OpenApiOperation } from '../api';
import { ErrorMessage } from '../components/Dialog';
import { Loading } from '../components/ListParts';
import { RichText, SchemaView } from '../components/OpenApi';
import {
  OperationView,
  eventAnchor,
  operationAnchor,
  type CallTarget,
} from '../components/openapi/OperationView';
import { schemaAnchor } from '../components/openapi/schema-labels';
import { PageHeader } from '../components/PageHeader';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

type Entry = { method: string; path: string; operation: OpenApiOperation };
type Group = { tag: string; description?: string; entries: Entry[] };

/** The operations by tag, in the document's tag order (untagged ones last), paths in order. */
function groupsOf(document: OpenApiDocument): Group[] {
  const groups = new Map<string, Group>();
  for (const tag of document.tags ?? [])
    groups.set(tag.name, { tag: tag.name, description: tag.description, entries: [] });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, { tag, entries: [] });
      groups.get(tag)!.entries.push({ method, path, operation });
    }
  }
  return [...groups.values()].filter((group) => group.entries.length > 0);
}

type EventEntry = { event: string; operation: OpenApiOperation };

/** The `webhooks` section: what the service POSTs to a webhook URL, one entry per event. */
function eventsOf(document: OpenApiDocument): EventEntry[] {
  return Object.entries(document.webhooks ?? {}).flatMap(([event, item]) =>
    item.post ? [{ event, operation: item.post }] : [],
  );
}

/** The document's first server on this origin, as a curl example calls it. */
function callTargetOf(document: OpenApiDocument): CallTarget {
  const server = document.servers?.[0]?.url ?? '/';
  const keyName = document.components?.securitySchemes?.apiKey?.name;
  return {
    baseUrl: new URL(server, window.location.origin).href.replace(/\/$/, ''),
    keyHeader: typeof keyName === 'string' ? keyName : 'x-api-key',
  };
}

function matches(entry: Entry, filter: string): boolean {
  if (!filter) return true;
  const { operation } = entry;
  const text = [
    entry.method,
    entry.path,
    operation.summary,
    operation.description,
    operation.operationId,
    ...Object.values(operation.responses ?? {}).flatMap((response) => response['x-custom-codes'] ?? []),
  ]
    .join('\n')
    .toLowerCase();
  return filter
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word));
}

export function ApiReferencePage() {
  const [document, setDocument] = useState<OpenApiDocument>();
  const [error, setError] = useState<string>();
  const [filter, setFilter] = useState('');

  useEffect(() => {
    let live = true;
    api
      .openApi()
      .then((answer) => live && setDocument(answer))
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, []);

  const groups = document ? groupsOf(document) : [];
  const shownGroups = groups
    .map((group) => ({ ...group, entries: group.entries.filter((entry) => matches(entry, filter.trim())) }))
    .filter((group) => group.entries.length > 0);
  const shownEvents = (document ? eventsOf(document) : []).filter(({ event, operation }) =>
    matches({ method: 'post', path: event, operation }, filter.trim()),
  );
  const call = document ? callTargetOf(document) : undefined;
  const schemas = document?.components?.schemas ?? {};
  const keyHeader = document?.components?.securitySchemes?.apiKey;

  return (
    <section data-testid="api-reference-page" className="api-reference">
      <PageHeader
        title="API reference"
        lead={
          <>
            The REST API of this service, read from its OpenAPI document{' '}
            <a
              href="/api/v1/openapi.json"
              target="_blank"
              rel="noopener noreferrer"
              data-testid="openapi-link"
            >
              /api/v1/openapi.json
            </a>
            .
          </>
        }
      />
      <ErrorMessage message={error} />
      {!document ? (
        <Loading failed={Boolean(error)} testId="api-reference-loading" />
      ) : (
        <div className="api-layout">
          <nav className="api-index" aria-label="Operations">
            <input
              type="search"
              placeholder="Filter operations"
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              data-testid="api-filter"
            />
            {shownGroups.map((group) => (
              <div key={group.tag} className="api-index-group">
                <a href={`#tag-${group.tag.replace(/\W+/g, '-')}`} className="api-index-tag">
                  {group.tag}
                </a>
                <ul>
                  {group.entries.map(({ method, path, operation }) => (
                    <li key={`${method} ${path}`}>
                      <a href={`#${operationAnchor(method, path)}`} title={operation.summary}>
                        <span className={`method method-small method-${method}`}>{method.toUpperCase()}</span>{' '}
                        <span className="api-index-path">{path.replace(/^\/api\/v1/, '')}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
            {shownEvents.length ? (
              <div className="api-index-group">
                <a href="#events" className="api-index-tag">
                  Events (webhooks)
                </a>
                <ul>
                  {shownEvents.map(({ event, operation }) => (
                    <li key={event}>
                      <a href={`#${eventAnchor(event)}`} title={operation.description}>
                        <span className="api-index-path">{event}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <a href="#schemas" className="api-index-tag">
              Schemas
            </a>
          </nav>

          <div className="api-main">
            <div className="panel" data-testid="api-info">
              <h2>
                {document.info.title} <span className="tag tag-plain">v{document.info.version}</span>{' '}
                <span className="tag tag-plain">OpenAPI {document.openapi}</span>
              </h2>
              <p className="operation-description">
                <RichText text={document.info.description} />
              </p>
              <dl className="facts">
                {document.servers?.length ? (
                  <>
                    <dt>Base URL</dt>
                    <dd>
                      {document.servers.map((server) => (
                        <code key={server.url} className="server-url">
                          {new URL(server.url, window.location.origin).href.replace(/\/$/, '')}
                        </code>
                      ))}
                    </dd>
                  </>
                ) : null}
                {keyHeader ? (
                  <>
                    <dt>Authentication</dt>
                    <dd>
                      <code>{String(keyHeader.name ?? 'x-api-key')}</code> header.{' '}
                      <RichText
                        text={typeof keyHeader.description === 'string' ? keyHeader.description : ''}
                      />
                    </dd>
                  </>
                ) : null}
              </dl>
            </div>

            {shownGroups.length === 0 && shownEvents.length === 0 ? (
              <div className="empty" data-testid="api-no-match">
                No operation matches “{filter}”.
              </div>
            ) : null}
            {shownGroups.map((group) => (
              <section
                key={group.tag}
                id={`tag-${group.tag.replace(/\W+/g, '-')}`}
                className="api-tag"
                data-testid="api-tag"
                data-tag={group.tag}
              >
                <h2>{group.tag}</h2>
                {group.description ? <p className="muted">{group.description}</p> : null}
                {group.entries.map(({ method, path, operation }) => (
                  <OperationView
                    key={`${method} ${path}`}
                    method={method}
                    path={path}
                    operation={operation}
                    document={document}
                    call={call}
                  />
                ))}
              </section>
            ))}

            {shownEvents.length ? (
              <section id="events" className="api-tag" data-testid="api-events">
                <h2>Events (webhooks)</h2>
                <p className="muted">
                  What the service POSTs to a webhook URL, one entry per event a webhook can subscribe to: the
                  headers, the body (the envelope, unless the webhook has a body template) and what your
                  answer means.
                </p>
                {shownEvents.map(({ event, operation }) => (
                  <OperationView
                    key={event}
                    method="post"
                    path={event}
                    operation={operation}
                    document={document}
                    event
                  />
                ))}
              </section>
            ) : null}

            <section id="schemas" className="api-tag" data-testid="api-schemas">
              <h2>Schemas</h2>
              {Object.entries(schemas).map(([name, schema]) => (
                <details
                  key={name}
                  id={schemaAnchor(name)}
                  className="schema-entry"
                  data-testid="api-schema"
                  data-name={name}
                >
                  <summary>
                    <code>{name}</code>
                  </summary>
                  <SchemaView schema={schema} schemas={schemas} seen={new Set([name])} />
                </details>
              ))}
            </section>
          </div>
        </div>
      )}
    </section>
  );
}
