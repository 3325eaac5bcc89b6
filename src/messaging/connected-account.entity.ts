import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A messaging channel connected to a workspace: its provider's activity arrives signed. */
@Entity({ name: 'connected_accounts' })
export class ConnectedAccount {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ type: 'text' })
  provider: string;

  /** The provider's id of the account. */
  @Column({ name: 'account_id', type: 'text' })
  accountId: string;

  @Column({ name: 'display_name', type: 'text' })
  displayName: string;

  /** The secret the provider signs its requests with, sealed (SecretBox). */
  @Column({ name: 'signing_secret_sealed', type: 'text' })
  signingSecretSealed: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
