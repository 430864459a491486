import type { EventActor } from '../entities/outbox-event';

/** An outbox row as the worker reads it. */
export interface OutboxRecord {
  tenant_id: string;
  id: string;
  type: string;
  resource_type: string;
  resource_id: string | null;
  occurred_at: Date | string;
  actor: EventActor | null;
  data: unknown;
}

/** The JSON every receiver gets (webhooks, subscriptions): see docs/events.md. */
export interface EventEnvelope {
  id: string;
  type: string;
  tenantId: string;
  occurredAt: string;
  actor: EventActor | null;
  resource: { type: string; id: string | null };
  data: unknown;
}

export function envelopeOf(row: OutboxRecord): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    tenantId: row.tenant_id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    actor: row.actor,
    resource: { type: row.resource_type, id: row.resource_id },
    data: row.data,
  };
}
