import { ApiKey } from '../../api-keys/api-key.entity';
import { CrmRecord } from '../../records/crm-record.entity';
import { RecordEvent } from '../../records/record-event.entity';
import { RecordField } from '../../record-model/record-field.entity';
import { RecordType } from '../../record-model/record-type.entity';
import { Member } from '../../identity/member.entity';
import { Role } from '../../identity/role.entity';
import { Session } from '../../identity/sessions/session.entity';
import { User } from '../../identity/user.entity';
import { EmailToken } from '../../identity/email-proof/email-token.entity';
import { Workspace } from '../../identity/workspace.entity';
import { Webhook } from '../../webhooks/webhook.entity';
import { DELIVERY_ENTITIES } from '../../deliveries/store';
import { ConnectedAccount } from '../../messaging/connected-account.entity';
import { StoredEvent } from '../../messaging/stored-event.entity';
import { OAuthConnection } from '../../oauth/oauth-connection.entity';
import { OAuthStoreRow } from '../../oauth/oauth-store.entity';

/** Every TypeORM entity of the service. */
export const entities = [
  Workspace,
  User,
  Role,
  Member,
  Session,
  EmailToken,
  ApiKey,
  RecordType,
  RecordField,
  CrmRecord,
  RecordEvent,
  Webhook,
  ...DELIVERY_ENTITIES,
  ConnectedAccount,
  StoredEvent,
  OAuthStoreRow,
  OAuthConnection,
];
