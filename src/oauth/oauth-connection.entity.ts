import { Column, CreateDateColumn, Entity } from 'typeorm';
import { PersonalRow } from '../db/workspace-row';

/**
 * A chat assistant a person connected over OAuth (Settings → Connected apps): written at consent,
 * bound to the workspace chosen there, the user and the client. Its grant's tokens act only while
 * it exists; deleting it (disconnect, member removed) revokes them.
 */
@Entity({ name: 'oauth_connections' })
export class OAuthConnection extends PersonalRow {
  @Column({ name: 'client_id', type: 'text' })
  clientId: string;

  /** The client's registered `client_name` (or its id when it gave none), as shown at consent. */
  @Column({ name: 'client_name', type: 'text' })
  clientName: string;

  /** The host of the redirect URI the consent sent the code to. */
  @Column({ name: 'redirect_host', type: 'text' })
  redirectHost: string;

  @Column({ name: 'grant_id', type: 'text' })
  grantId: string;

  /** Chosen at consent: the app gets only the tools that change nothing (src/mcp/mcp-tools.ts). */
  @Column({ name: 'read_only', type: 'boolean', default: false })
  readOnly: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
