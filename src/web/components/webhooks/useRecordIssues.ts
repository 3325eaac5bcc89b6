// The webhook dialog's record settings issues: its own checks before a write is sent (the shared
// rules the server runs), and the server's refusal issues that name a record setting, both kept
// by path so each shows beside the setting it is about.
import { useState } from 'react';
import type { ErrorIssue } from '../../../shared/app-error';
import { ApiError, type WebhookWrite } from '../../api';
import { recordSettingsIssues, type TypeFields } from '../../record-sources';
import type { WebhookDraft } from '../../webhook-draft';
import { useTypeFields } from './useTypeFields';

/** The dialog's message when a record setting is refused: the details are beside each setting. */
export const RECORD_SETTINGS_REFUSED = 'Check the record settings: the messages are beside them.';

const namesRecordSettings = (issue: { path: readonly unknown[] }) =>
  issue.path[0] === 'recordTrigger' || issue.path[0] === 'recordSources';

export type RecordIssues = {
  typeFields: (typeId: string) => TypeFields | undefined;
  issues: ErrorIssue[];
  clear: () => void;
  /** True when `write` may be sent; otherwise the issues are shown. */
  check: (draft: WebhookDraft, write: WebhookWrite) => boolean;
  /** A refusal with the record settings' issues kept; what the dialog's message should say. */
  refused: (failure: unknown) => unknown;
};

export function useRecordIssues(draft: WebhookDraft | undefined): RecordIssues {
  const typeFields = useTypeFields(draft?.record.sources.map((source) => source.typeId) ?? []);
  const [issues, setIssues] = useState<ErrorIssue[]>([]);
  return {
    typeFields,
    issues,
    clear: () => setIssues((now) => (now.length ? [] : now)),
    check: (current, write) => {
      // Only what the write changes is checked: a stale setting kept as it is blocks nothing.
      const touched =
        write.recordTrigger !== undefined || write.recordSources !== undefined || write.events !== undefined;
      const found = touched ? recordSettingsIssues(current.record, typeFields, current.events) : [];
      setIssues(found);
      return found.length === 0;
    },
    refused: (failure) => {
      if (!(failure instanceof ApiError)) return failure;
      const mine = failure.issues.filter(namesRecordSettings);
      if (!mine.length) return failure;
      setIssues(mine);
      return new Error(RECORD_SETTINGS_REFUSED);
    },
  };
}
