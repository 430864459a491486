import { Arg, Ctx, Field, ID, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../../context';
import { DeliveryStatus, EventDelivery } from '../entities/event-delivery';
import { WebhookEndpoint } from '../entities/webhook-endpoint';
import { PageOf, type Page } from '../../../schema/page';
import { can, Requires } from '../../../permissions/rules';
import { ARG_DOCS } from '../../../schema/descriptions';
import {
  createWebhook,
  deleteWebhook,
  deliveriesOf,
  findWebhook,
  listWebhooks,
  redeliver,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from '../webhooks';
import { PageArg } from '../../../schema/args';
import { CreateWebhookInput, UpdateWebhookInput } from './webhook-inputs';

/** The endpoint with its signing secret: the answer of creation and rotation only. */
@ObjectType({ description: 'A webhook endpoint with its signing secret (shown once).' })
export class WebhookEndpointWithSecret extends WebhookEndpoint {
  @Field(() => String, { description: 'The Standard Webhooks signing secret (`whsec_...`); keep it.' })
  declare secret: string;
}

const DeliveryPage = PageOf(EventDelivery, 'EventDelivery');

@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  @Requires(can('READ', 'WEBHOOKS'))
  @Query(() => [WebhookEndpoint], { description: "The tenant's webhook endpoints." })
  webhooks(@Ctx() ctx: Context): Promise<WebhookEndpoint[]> {
    return listWebhooks(ctx);
  }

  @Requires(can('READ', 'WEBHOOKS'))
  @Query(() => WebhookEndpoint, {
    nullable: true,
    description: 'One webhook endpoint, or null when it does not exist.',
  })
  webhook(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<WebhookEndpoint | null> {
    return findWebhook(ctx, id);
  }

  @Requires(can('READ', 'WEBHOOKS'))
  @Query(() => DeliveryPage, { description: "A webhook's deliveries, newest event first." })
  webhookDeliveries(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Id of the webhook endpoint.' }) id: string,
    @Arg('status', () => DeliveryStatus, { nullable: true, description: 'Only deliveries in this state.' })
    status?: DeliveryStatus,
    @PageArg.number() pageNumber?: number,
    @PageArg.size() pageSize?: number,
  ): Promise<Page<EventDelivery>> {
    return deliveriesOf(ctx, id, status, pageNumber, pageSize);
  }

  @Requires(can('CREATE', 'WEBHOOKS'))
  @Mutation(() => WebhookEndpointWithSecret, {
    description: 'Registers an endpoint; the answer holds its secret.',
  })
  createWebhook(
    @Arg('input', { description: 'The new endpoint.' }) input: CreateWebhookInput,
    @Ctx() ctx: Context,
  ): Promise<WebhookEndpoint> {
    return createWebhook(ctx, input);
  }

  @Requires(can('UPDATE', 'WEBHOOKS'))
  @Mutation(() => WebhookEndpoint, { description: 'Changes a webhook endpoint; absent fields stay.' })
  updateWebhook(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Arg('input', { description: 'The fields to change.' }) input: UpdateWebhookInput,
    @Ctx() ctx: Context,
  ): Promise<WebhookEndpoint> {
    return updateWebhook(ctx, id, input);
  }

  @Requires(can('DELETE', 'WEBHOOKS'))
  @Mutation(() => Boolean, {
    description: 'Deletes an endpoint and its delivery log; false if there is none.',
  })
  deleteWebhook(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<boolean> {
    return deleteWebhook(ctx, id);
  }

  @Requires(can('UPDATE', 'WEBHOOKS'))
  @Mutation(() => WebhookEndpointWithSecret, {
    description: 'A new signing secret; the previous one keeps signing alongside for a grace period.',
  })
  rotateWebhookSecret(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<WebhookEndpoint> {
    return rotateWebhookSecret(ctx, id);
  }

  @Requires(can('UPDATE', 'WEBHOOKS'))
  @Mutation(() => EventDelivery, { description: 'Sends a `webhook.test` event to this endpoint.' })
  testWebhook(
    @Arg('id', () => ID, { description: ARG_DOCS.id }) id: string,
    @Ctx() ctx: Context,
  ): Promise<EventDelivery> {
    return testWebhook(ctx, id);
  }

  @Requires(can('UPDATE', 'WEBHOOKS'))
  @Mutation(() => EventDelivery, { description: "Sends a delivery's event to its endpoint again." })
  redeliverWebhookDelivery(
    @Arg('id', () => ID, { description: 'Id of the webhook endpoint.' }) id: string,
    @Arg('deliveryId', () => ID, { description: 'Id of the delivery.' }) deliveryId: string,
    @Ctx() ctx: Context,
  ): Promise<EventDelivery> {
    return redeliver(ctx, id, deliveryId);
  }
}
