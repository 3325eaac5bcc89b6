import { Column, CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

// The columns the workspace's tables open and close with, declared once. TypeORM gives an entity the
// columns of the abstract classes it extends, so each table's schema stays what its migration made.

/** A row of one workspace, with a generated id. */
export abstract class WorkspaceRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;
}

/** A row of one workspace that belongs to one of its people (an API key, a connected app). */
export abstract class PersonalRow extends WorkspaceRow {
  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;
}

/** A row people create and edit: who created it, when, and when it last changed. */
export abstract class EditedRow extends WorkspaceRow {
  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
