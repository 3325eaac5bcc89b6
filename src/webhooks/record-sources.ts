import { AppError, type ErrorIssue } from '../shared/app-error';
import { recordSourceIssues } from '../shared/webhooks/record-source.rules';
import { findReadableType, type RecordModel } from '../record-model/model.service';
import type { RecordAccess } from '../record-model/record-access';
import type { RecordSource, RecordTrigger } from './record-source-schemas';

/**
 * Checks record settings against the record model as the record owner can read it: each source's
 * type must be readable by the owner, its query must fit the type's fields and filter only on fields
 * the owner can read, its changed fields must be readable fields of the type, and its events must be
 * record events the webhook subscribes to.
 */
export function checkRecordSettings(
  model: RecordModel,
  ownerAccess: RecordAccess,
  settings: { events: string[]; recordTrigger: RecordTrigger | null; recordSources: RecordSource[] | null },
): void {
  const issues: ErrorIssue[] = [];
  const check = (source: RecordTrigger & { events?: string[] }, path: (string | number)[]) => {
    let type;
    try {
      type = findReadableType(model, ownerAccess, source.query.typeId);
    } catch {
      issues.push({
        code: 'invalid',
        path: [...path, 'query', 'typeId'],
        message: 'The record owner cannot read this record type, or it does not exist.',
        customCode: 'webhookRecordTypeNotReadable',
      });
      return;
    }
    issues.push(
      ...recordSourceIssues(source, type, path, settings.events, (fieldId) =>
        ownerAccess.isFieldRestricted(fieldId),
      ),
    );
  };
  if (settings.recordTrigger) check(settings.recordTrigger, ['recordTrigger']);
  settings.recordSources?.forEach((source, index) => check(source, ['recordSources', index]));
  if (issues.length) throw new AppError('validation', issues);
}
