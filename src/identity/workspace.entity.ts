import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { PLAN_STATES, type PlanState } from './identity-view';

/** Plan state (docs/api.md#authentication); enforced only with DEPLOYMENT=cloud. */
export { PLAN_STATES, type PlanState };

@Entity({ name: 'workspaces' })
export class Workspace {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'plan_state', type: 'text', default: 'none' })
  planState: PlanState;

  /** Raised by every data-model change (docs/api.md#rest-endpoints). */
  @Column({ name: 'schema_revision', type: 'integer', default: 1 })
  schemaRevision: number;

  /** Set when the admin finishes or skips the onboarding wizard. */
  @Column({ name: 'onboarded_at', type: 'timestamptz', nullable: true })
  onboardedAt: Date | null;

  /**
   * The person who created it (sign-up, or the web app's new workspace); null when made from the
   * CLI. Their workspaces share one request quota (QUOTA_PER_PERSON).
   */
  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
