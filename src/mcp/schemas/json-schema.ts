/** A JSON Schema as `z.toJSONSchema` makes it, and as the tools advertise it. */
export type JsonSchema = Record<string, unknown> & {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
};
