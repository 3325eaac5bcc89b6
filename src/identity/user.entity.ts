import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'users' })
export class User {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Stored lower-cased; unique. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  name: string;

  /** scrypt, `scrypt$<salt hex>$<hash hex>`. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

  /** When the address was proven (an e-mailed link, or an operator's act); null: unverified. */
  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt: Date | null;

  /**
   * Workspaces this person created themselves (sign-up's first, then the web app's), bounded by
   * WORKSPACES_PER_PERSON; never lowered. The CLI's are not counted (src/identity/workspaces.service.ts).
   */
  @Column({ name: 'workspaces_created', type: 'integer', default: 0 })
  workspacesCreated: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
