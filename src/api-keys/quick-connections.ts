import type { QuickConnection, Snippet } from './api-key-view';

/**
 * The clients offered under "Quick connections" (docs/api.md#limits): key-based clients get a key
 * named after them that expires in exactly 365 days; OAuth-based connectors get no key, only
 * instructions.
 */
export type { QuickConnection, Snippet };

interface Endpoints {
  mcpUrl: string;
  restUrl: string;
}

type SnippetMaker = (key: string, endpoints: Endpoints) => Snippet;

const json = (value: unknown) => JSON.stringify(value, null, 2);

const KEY_CLIENTS: Record<string, { label: string; instructions: string; snippet: SnippetMaker }> = {
  'claude-desktop': {
    label: 'Claude Desktop',
    instructions:
      'Add this server to claude_desktop_config.json (Settings → Developer → Edit Config), then restart Claude Desktop.',
    snippet: (key, { mcpUrl }) => ({
      title: 'claude_desktop_config.json',
      language: 'json',
      text: json({
        mcpServers: {
          crm: { command: 'npx', args: ['-y', 'mcp-remote', mcpUrl, '--header', `x-api-key:${key}`] },
        },
      }),
    }),
  },
  cursor: {
    label: 'Cursor',
    instructions:
      'Add this server to .cursor/mcp.json in your project (or ~/.cursor/mcp.json for every project).',
    snippet: (key, { mcpUrl }) => ({
      title: '.cursor/mcp.json',
      language: 'json',
      text: json({ mcpServers: { crm: { url: mcpUrl, headers: { 'x-api-key': key } } } }),
    }),
  },
  vscode: {
    label: 'VS Code',
    instructions: 'Add this server to .vscode/mcp.json in your workspace.',
    snippet: (key, { mcpUrl }) => ({
      title: '.vscode/mcp.json',
      language: 'json',
      text: json({ servers: { crm: { type: 'http', url: mcpUrl, headers: { 'x-api-key': key } } } }),
    }),
  },
  windsurf: {
    label: 'Windsurf',
    instructions: 'Add this server to ~/.codeium/windsurf/mcp_config.json, then refresh the MCP servers.',
    snippet: (key, { mcpUrl }) => ({
      title: 'mcp_config.json',
      language: 'json',
      text: json({ mcpServers: { crm: { serverUrl: mcpUrl, headers: { 'x-api-key': key } } } }),
    }),
  },
  n8n: {
    label: 'n8n',
    instructions: 'In an AI Agent, add an "MCP Client Tool" node with these settings.',
    snippet: (key, { mcpUrl }) => ({
      title: 'MCP Client Tool node',
      language: 'text',
      text: `Endpoint: ${mcpUrl}\nServer Transport: HTTP Streamable\nAuthentication: Header Auth\n  Name: x-api-key\n  Value: ${key}`,
    }),
  },
  zapier: {
    label: 'Zapier',
    instructions: 'Use "Webhooks by Zapier" → Custom Request (or API Request) with this header.',
    snippet: (key, { restUrl }) => ({
      title: 'Webhooks by Zapier: Custom Request',
      language: 'text',
      text: `URL: ${restUrl}/webhooks\nHeaders:\n  x-api-key: ${key}\n  Content-Type: application/json`,
    }),
  },
  make: {
    label: 'Make',
    instructions: 'Use the HTTP module "Make a request" with this header.',
    snippet: (key, { restUrl }) => ({
      title: 'HTTP: Make a request',
      language: 'text',
      text: `URL: ${restUrl}/webhooks\nHeaders:\n  x-api-key: ${key}\n  Content-Type: application/json`,
    }),
  },
};

const OAUTH_CLIENTS: Record<string, { label: string; instructions: (endpoints: Endpoints) => string }> = {
  'claude-connector': {
    label: 'Claude (custom connector)',
    instructions: ({ mcpUrl }) =>
      `In Claude, open Settings → Connectors → Add custom connector and enter ${mcpUrl}.\n` +
      'Claude signs you in over OAuth: no API key is needed. Your role needs Read access All on API & Webhooks.',
  },
  'chatgpt-connector': {
    label: 'ChatGPT (custom connector)',
    instructions: ({ mcpUrl }) =>
      `In ChatGPT, open Settings → Connectors → Create and enter ${mcpUrl} as the MCP server URL.\n` +
      'ChatGPT signs you in over OAuth: no API key is needed. Your role needs Read access All on API & Webhooks.',
  },
};

export function quickConnections(endpoints: Endpoints): QuickConnection[] {
  return [
    ...Object.entries(KEY_CLIENTS).map(([id, client]) => ({
      id,
      label: client.label,
      auth: 'apiKey' as const,
      instructions: client.instructions,
    })),
    ...Object.entries(OAUTH_CLIENTS).map(([id, client]) => ({
      id,
      label: client.label,
      auth: 'oauth' as const,
      instructions: client.instructions(endpoints),
    })),
  ];
}

export const isKeyClient = (clientKind: string) => Object.hasOwn(KEY_CLIENTS, clientKind);
export const isOAuthClient = (clientKind: string) => Object.hasOwn(OAUTH_CLIENTS, clientKind);
export const keyClientLabel = (clientKind: string) => KEY_CLIENTS[clientKind]!.label;

/** The ready-to-paste snippet shown with a new key: the client's own, or a generic one. */
export function snippetFor(clientKind: string | null, key: string, endpoints: Endpoints): Snippet {
  if (clientKind && isKeyClient(clientKind)) return KEY_CLIENTS[clientKind]!.snippet(key, endpoints);
  return {
    title: 'MCP and REST',
    language: 'text',
    text:
      `MCP endpoint: ${endpoints.mcpUrl}\nHeader: x-api-key: ${key}\n\n` +
      `curl -H 'x-api-key: ${key}' ${endpoints.restUrl}/me`,
  };
}
