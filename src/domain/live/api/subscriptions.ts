import { Arg, Field, ID, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { DateTimeISOResolver } from '../../../schema/date-time';
import type { Context, LiveStreams } from '../../../context';
import { Notification } from '../../notifications/entities/notification';
import type { EventEnvelope } from '../../../events/envelope';
import { badRequest } from '../../../errors';
import { authenticated, Requires } from '../../../permissions/rules';

@ObjectType('EventActor', { description: 'Who made a change: null for the service itself.' })
class EventActorObject {
  @Field(() => ID, { description: 'The id of the user who made the change.' }) userId!: string;
  @Field(() => String, { description: 'Their e-mail address when the change was made.' }) email!: string;
}

@ObjectType('EventResource', { description: 'The record an event is about.' })
class EventResourceObject {
  @Field(() => String, { description: 'The record type in snake case: `feature`, `stock_transfer`...' })
  type!: string;
  @Field(() => ID, {
    nullable: true,
    description: 'The record id; null for an event about no single record.',
  })
  id!: string | null;
}

@ObjectType('RecordEvent', {
  description: 'An event as webhooks receive it: the envelope of docs/events.md.',
})
export class RecordEventObject {
  @Field(() => ID, { description: 'The event id; the same as the webhook-id of its deliveries.' })
  id!: string;
  @Field(() => String, { description: '`<resource>.<action>`, such as `feature.status_changed`.' })
  type!: string;
  @Field(() => ID, { description: "The tenant the change happened in: always the caller's own." })
  tenantId!: string;
  @Field(() => DateTimeISOResolver, { description: 'When the change was committed.' })
  occurredAt!: string;
  @Field(() => EventActorObject, {
    nullable: true,
    description: 'Who made the change; null for the service itself.',
  })
  actor!: EventActorObject | null;
  @Field(() => EventResourceObject, { description: 'The record the event is about.' })
  resource!: EventResourceObject;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'The record after the change, as the REST API shows it (as it was, for a deletion).',
  })
  data!: Record<string, unknown> | null;
}

function liveOf(ctx: Context): LiveStreams {
  if (!ctx.live)
    throw badRequest('subscriptions are served over WebSocket (graphql-transport-ws) at /graphql');
  return ctx.live;
}

/**
 * Live events over WebSocket (src/graphql/subscriptions.ts): each subscription's stream comes from
 * the caller's session, which the outbox feeds on every service process (events/live.ts).
 */
@Resolver()
export class LiveResolver {
  @Subscription(() => Notification, {
    description:
      "The caller's own notifications as they arrive in their feed (those their settings turn away never do).",
    subscribe: ({ context }) => liveOf(context as Context).notifications(),
  })
  @Requires(authenticated)
  notificationAdded(@Root() notification: Notification): Notification {
    return notification;
  }

  @Subscription(() => RecordEventObject, {
    description:
      'Changes to the records the caller may read, under the same permissions and data scope as queries. ' +
      '`types` names the events wanted (`feature.created`, `lead.status_changed`...); omitted, every readable one.',
    subscribe: ({ args, context }) =>
      liveOf(context as Context).records(context as Context, (args as { types?: string[] | null }).types),
  })
  @Requires(authenticated)
  recordChanged(
    @Root() event: EventEnvelope,
    @Arg('types', () => [String], {
      nullable: true,
      description:
        'Event names to receive (`feature.created`, `lead.status_changed`...); omitted, every readable one.',
    })
    _types: string[] | null,
  ): EventEnvelope {
    return event;
  }
}
