// A small reader of the OpenAPI 3.1 document (GET /api/v1/openapi.json): its descriptions, and its
// JSON Schemas as nested property tables (its operations: openapi/OperationView.tsx).
// No third-party renderer: the document of this service uses a handful of JSON Schema keywords.
import type { JsonSchema } from '../api';
import {
  asSchemas,
  constraints,
  objectOf,
  refName,
  schemaAnchor,
  typeLabel,
  type Schemas,
} from './openapi/schema-labels';

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
