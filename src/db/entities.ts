import { ApiKey } from '../api-keys/api-key.entity';
import { Member } from '../identity/member.entity';
import { Role } from '../identity/role.entity';
import { Session } from '../identity/session.entity';
import { User } from '../identity/user.entity';
import { Workspace } from '../identity/workspace.entity';

/** Every TypeORM entity of the service. */
export const entities = [Workspace, User, Role, Member, Session, ApiKey];
