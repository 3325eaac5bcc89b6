import type { Tag } from './operation';

/**
 * The parts of an OpenAPI 3.1 document this service writes (document.ts), as the web app's API
 * reference reads them. Types only, and light on purpose: the web app imports them.
 */

export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiMedia {
  schema: JsonSchema;
  example?: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  /** Absent on a JSON-encoded query parameter: its `content` describes the parsed form. */
  schema?: JsonSchema;
  content?: Record<string, OpenApiMedia>;
}

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, JsonSchema>;
  /** The customCodes this refusal can carry. */
  'x-custom-codes'?: string[];
  content?: Record<string, OpenApiMedia>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, OpenApiMedia> };
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: Tag; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** What the service POSTs to webhook URLs, by event name. */
  webhooks?: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
  };
}
