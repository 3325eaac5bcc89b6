import type { ErrorIssue } from '../shared/app-error';

/** Where an assistant finds each kind of id the tools take: the inputs that hold it, its refusals. */
const ID_SOURCES: readonly { hint: string; inputs: readonly string[]; customCodes: readonly string[] }[] = [
  {
    hint: 'Use manage_webhooks action list (or list_webhooks) to find webhook ids.',
    inputs: ['id', 'webhookId'],
    customCodes: ['webhookNotFound'],
  },
  {
    hint: 'Use manage_webhooks action list_deliveries (or list_deliveries) to find delivery ids.',
    inputs: ['deliveryId'],
    customCodes: ['deliveryNotFound'],
  },
  {
    hint: 'A resend batch id is what manage_webhooks action resend_failed answers.',
    inputs: ['batchId'],
    customCodes: ['resendBatchNotFound'],
  },
  {
    hint: 'Use search_records to find record ids.',
    inputs: ['recordId'],
    customCodes: ['recordNotFound'],
  },
  {
    hint: 'Use get_record_model to find the record types and their ids.',
    inputs: ['type', 'typeId'],
    customCodes: ['recordTypeNotFound', 'queryTypeIdInvalid', 'webhookRecordTypeNotReadable'],
  },
  {
    hint: 'Use get_record_model to find field ids.',
    inputs: ['fieldId', 'changedFieldIds'],
    customCodes: ['recordFieldNotFound', 'queryUnknownField', 'webhookChangedFieldUnknown'],
  },
];

/**
 * What to do about the ids a refusal is about (issue 27): which tool gives an id that was not
 * found, or that is missing or malformed at an input that takes one. Only the text an assistant
 * reads gains these; `_meta.failure` stays the spec's error body.
 */
export function idHints(issues: readonly ErrorIssue[]): string[] {
  const hints = issues.flatMap((issue) => {
    const input = inputOf(issue.path);
    return ID_SOURCES.filter(
      (source) =>
        (issue.customCode !== undefined && source.customCodes.includes(issue.customCode)) ||
        (input !== undefined && source.inputs.includes(input)),
    ).map((source) => source.hint);
  });
  return [...new Set(hints)];
}

/**
 * The input an issue is at: the last named step of its path. The keys of `values` and `links` are
 * fields (by id or name), whatever they are called, and a link's items are record ids.
 */
function inputOf(path: readonly (string | number)[]): string | undefined {
  const [section] = path;
  if (section === 'values' || section === 'links') {
    if (path.length === 2) return 'fieldId';
    return section === 'links' && path.length === 3 ? 'recordId' : undefined;
  }
  return [...path].reverse().find((part): part is string => typeof part === 'string');
}
