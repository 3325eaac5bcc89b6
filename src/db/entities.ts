import { Member } from '../identity/member.entity';
import { Role } from '../identity/role.entity';
import { User } from '../identity/user.entity';
import { Workspace } from '../identity/workspace.entity';

/** Every TypeORM entity of the service. */
export const entities = [Workspace, User, Role, Member];
