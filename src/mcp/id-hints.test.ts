import { AppError, notFoundError } from '../shared/app-error';
import { idHints } from './id-hints';
import { failureResult } from './mcp-tool';

const issue = (path: (string | number)[], customCode?: string) => ({
  code: 'invalid_format',
  path,
  message: 'Invalid UUID',
  ...(customCode ? { customCode } : {}),
});

describe('idHints', () => {
  it('names the tool that gives an id that was not found', () => {
    expect(idHints(notFoundError('Webhook not found.', 'webhookNotFound').issues)).toEqual([
      'Use manage_webhooks action list (or list_webhooks) to find webhook ids.',
    ]);
    expect(idHints(notFoundError('Delivery not found.', 'deliveryNotFound').issues)).toEqual([
      'Use manage_webhooks action list_deliveries (or list_deliveries) to find delivery ids.',
    ]);
    expect(idHints(notFoundError('Record not found.', 'recordNotFound').issues)).toEqual([
      'Use search_records to find record ids.',
    ]);
  });

  it('names it for an input that takes an id, at any depth, once', () => {
    expect(idHints([issue(['deliveryId'])])).toEqual([
      'Use manage_webhooks action list_deliveries (or list_deliveries) to find delivery ids.',
    ]);
    expect(
      idHints([issue(['recordTrigger', 'query', 'typeId']), issue(['recordSources', 0, 'query', 'typeId'])]),
    ).toEqual(['Use get_record_model to find the record types and their ids.']);
    expect(idHints([issue(['recordSources', 1, 'changedFieldIds', 0])])).toEqual([
      'Use get_record_model to find field ids.',
    ]);
  });

  it('reads the keys of values and links as fields, and a link’s items as record ids', () => {
    expect(idHints([issue(['values', 'id'])])).toEqual(['Use get_record_model to find field ids.']);
    expect(idHints([issue(['links', 'Company', 0])])).toEqual(['Use search_records to find record ids.']);
    expect(idHints([issue(['values', 'Notes', 'documentJson'])])).toEqual([]);
  });

  it('says nothing about other refusals', () => {
    expect(idHints([issue(['url'], 'webhookUrlInvalid'), issue([], 'insufficientPermissions')])).toEqual([]);
  });
});

describe('failureResult', () => {
  it('adds the hints to the text the assistant reads, and leaves _meta.failure the REST body’s error', () => {
    const error = new AppError('validation', [issue(['id'], 'invalid')]);
    const result = failureResult(error);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Refused (validation): Invalid UUID (at id) [invalid]\nUse manage_webhooks action list (or list_webhooks) to find webhook ids.',
      },
    ]);
    expect(result._meta!.failure).toEqual(error.toBody().error);
  });
});
