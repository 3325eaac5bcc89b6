// The record source shapes are pure and shared with the web app's record source editor.
export {
  RECORD_SOURCES_MAX,
  recordSourceSchema,
  recordSourcesSchema,
  recordTriggerSchema,
  type RecordSource,
  type RecordTrigger,
} from '../shared/webhooks/record-source.rules';
