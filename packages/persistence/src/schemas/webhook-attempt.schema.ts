import { EntitySchema } from 'typeorm';
import { instant, int, text, uuid, type InstantText } from './columns';

export interface WebhookAttemptRow {
  /** bigserial, assigned by the database. */
  id: number;
  delivery_id: string;
  attempted_at: InstantText;
  response_status: number | null;
  duration_ms: number;
  error: string | null;
}

export const webhookAttemptSchema = new EntitySchema<WebhookAttemptRow>({
  name: 'webhook_attempt',
  tableName: 'webhook_attempts',
  columns: {
    id: { type: 'bigint', primary: true, generated: 'increment' },
    delivery_id: uuid(),
    attempted_at: instant(),
    response_status: int(true),
    duration_ms: int(),
    error: text(true),
  },
});
