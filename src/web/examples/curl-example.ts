// A curl command per API reference operation: the method, the URL on the real base URL with
// placeholders for its path and required query parameters, the API key header with a placeholder
// key, and the request body's example as JSON when the document has one. No React here.
import type { OpenApiOperation } from '../api';

/** What a reader replaces with their own key (created in Settings → API keys). */
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** A POSIX shell word: single-quoted, with each `'` closed, escaped and reopened. */
export const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** `deliveryId` → `DELIVERY_ID`: a placeholder that reads as one and survives curl's URL globbing. */
export const placeholderOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/\W+/g, '_')
    .toUpperCase();

export function curlExample(input: {
  method: string;
  path: string;
  operation: OpenApiOperation;
  /** The server's URL, without a trailing slash. */
  baseUrl: string;
  /** The API key header's name (the document's `apiKey` security scheme). */
  keyHeader: string;
}): string {
  const { method, path, operation, baseUrl, keyHeader } = input;
  const parameters = operation.parameters ?? [];
  const query = parameters
    .filter((parameter) => parameter.in === 'query' && parameter.required)
    .map((parameter) => `${encodeURIComponent(parameter.name)}=${placeholderOf(parameter.name)}`);
  const url = `${baseUrl}${path.replace(/\{(\w+)\}/g, (_match, name: string) => placeholderOf(name))}${
    query.length ? `?${query.join('&')}` : ''
  }`;
  const keyed = !(Array.isArray(operation.security) && operation.security.length === 0);
  const body = operation.requestBody?.content['application/json'];
  const headers = [
    ...(keyed ? [`${keyHeader}: ${API_KEY_PLACEHOLDER}`] : []),
    ...(body ? ['Content-Type: application/json'] : []),
    // MCP's Streamable HTTP answers 406 to a POST that does not accept both (docs/api.md#mcp-post-apiv1mcp).
    ...(path.endsWith('/mcp') ? ['Accept: application/json, text/event-stream'] : []),
    ...parameters
      .filter((parameter) => parameter.in === 'header' && parameter.required)
      .map((parameter) => `${parameter.name}: ${placeholderOf(parameter.name)}`),
  ];
  const verb = method.toUpperCase();
  const parts = [
    `curl ${verb === 'GET' ? '' : `-X ${verb} `}${shellQuote(url)}`,
    ...headers.map((header) => `-H ${shellQuote(header)}`),
    ...(body?.example !== undefined ? [`-d ${shellQuote(JSON.stringify(body.example, null, 2))}`] : []),
  ];
  return parts.join(' \\\n  ');
}
