import { AppError, type ErrorIssue } from '../shared/app-error';
import { findReadableType, type RecordModel } from '../record-model/model.service';
import type { RecordAccess } from '../record-model/record-access';
import { validateQuery } from '../records/record-query';
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
    try {
      validateQuery(source.query, type.fields, [...path, 'query']);
    } catch (error) {
      if (error instanceof AppError) issues.push(...error.issues);
      else throw error;
    }
    // A filter on a field the owner cannot read would reveal its values through which records
    // are delivered; watching it, when it changes (issue 10, hole 2).
    const restricted = (fieldId: string, at: (string | number)[]) => {
      if (!ownerAccess.isFieldRestricted(fieldId)) return false;
      issues.push({
        code: 'invalid',
        path: at,
        message: 'The record owner cannot read this field, so a webhook cannot filter on it or watch it.',
        customCode: 'webhookFieldRestricted',
      });
      return true;
    };
    for (const [index, filter] of (source.query.filters ?? []).entries()) {
      restricted(filter.fieldId, [...path, 'query', 'filters', index, 'fieldId']);
    }
    for (const [index, fieldId] of (source.changedFieldIds ?? []).entries()) {
      const at = [...path, 'changedFieldIds', index];
      if (!type.fields.some((field) => field.id === fieldId)) {
        issues.push({
          code: 'invalid',
          path: at,
          message: `No field ${fieldId} in ${type.name}.`,
          customCode: 'webhookChangedFieldUnknown',
        });
      } else restricted(fieldId, at);
    }
    for (const [index, event] of (source.events ?? []).entries()) {
      if (!settings.events.includes(event)) {
        issues.push({
          code: 'invalid',
          path: [...path, 'events', index],
          message: `The webhook does not subscribe to ${event}.`,
          customCode: 'webhookSourceEventNotSubscribed',
        });
      }
    }
  };
  if (settings.recordTrigger) check(settings.recordTrigger, ['recordTrigger']);
  settings.recordSources?.forEach((source, index) => check(source, ['recordSources', index]));
  if (issues.length) throw new AppError('validation', issues);
}
