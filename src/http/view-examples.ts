/**
 * The ids the views' OpenAPI examples share, so one example's webhook, record and delivery name
 * each other as real answers would (a delivery's `webhookId` is the example webhook's `id`).
 */
export const EXAMPLE = {
  workspaceId: '3a9d1f20-6b4e-4c8a-9f11-2d7e5b0c8a41',
  userId: '8c2f4e61-1d3b-4a7c-b5e9-6f0a2d4c8e13',
  roleId: 'b41e7d90-5c2a-4f36-8e1b-9a7c3d5f2e08',
  apiKeyId: 'e6a3c9b1-7f2d-4e58-a0c4-1b8d6f3e9a27',
  dealTypeId: '2f6b8d14-9c3e-4a71-8b5d-0e4f7a2c6d93',
  contactTypeId: 'c7e2a5d8-3b9f-4c16-9a4e-5d1b8f0c7e62',
  nameFieldId: '0b6a6f4e-7a0f-4c2a-9d55-1f3c2b8e4a10',
  amountFieldId: '5d2e8c1b-3f4a-4e6b-8a9c-7b1d0e2f3a40',
  stageFieldId: '9e4c1a7b-2d5f-4b83-a6e0-3c8f1d7b5a29',
  contactLinkFieldId: '3e1d2c4b-5a69-4788-9bab-cdef01234567',
  recordId: '4d8b2e6f-0a1c-4e97-b3d5-7f9a1c3e5b80',
  contactRecordId: '9c4b2a1d-6e5f-4a3b-8c7d-2e1f0a9b8c70',
  webhookId: '7f1c2d3e-4b5a-4c6d-8e7f-901a2b3c4d5e',
  deliveryId: 'd2a7f4c9-8e1b-4d36-9c5a-0b3e6f8d1a74',
  resendId: 'a5c8e1f3-6d2b-4a97-8e4c-1f7b3d9a0c56',
  eventId: '6b3f9d2a-4c8e-4f15-a7d1-8e2c5b0f3d69',
} as const;
