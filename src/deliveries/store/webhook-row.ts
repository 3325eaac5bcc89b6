import { Column, PrimaryGeneratedColumn } from 'typeorm';

/** The columns a row of one webhook's begins with: its id, its workspace and its webhook. */
export abstract class WebhookRow {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'workspace_id', type: 'uuid' })
  workspaceId: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  webhookId: string;
}
