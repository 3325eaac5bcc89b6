import { buildOpenApiDocument } from './document';
import { OPERATIONS } from './paths';

// An example per operation (issue 13, "OpenAPI with the events"): every success answer with a
// body shows one, and the example is what the answer's own view schema accepts.
describe('success examples', () => {
  const withBody = OPERATIONS.filter((spec) => spec.success.schema !== undefined);

  it('every operation whose success answer has a body carries an example', () => {
    const missing = withBody
      .filter((spec) => spec.success.example === undefined)
      .map((spec) => spec.operationId);
    expect(missing).toEqual([]);
  });

  it.each(withBody.map((spec) => [spec.operationId, spec] as const))(
    '%s: the example is accepted by the answer schema and published in the document',
    (_operationId, spec) => {
      const parsed = spec.success.schema!.safeParse(spec.success.example);
      expect(parsed.error?.issues ?? []).toEqual([]);
      const document = buildOpenApiDocument();
      const answer = document.paths[spec.path]![spec.method]!.responses[spec.success.status] as {
        content?: Record<string, { example?: unknown }>;
      };
      expect(answer.content?.['application/json']?.example).toEqual(spec.success.example);
    },
  );
});
