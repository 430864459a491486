import { Entity, Enum, Index, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType, registerEnumType } from 'type-graphql';
import { DateTimeISOResolver } from '../../graphql/date-time';
import { TenantScoped } from '../tenant-scoped';

export enum PushPlatform {
  IOS = 'IOS',
  ANDROID = 'ANDROID',
  WEB = 'WEB',
}
registerEnumType(PushPlatform, {
  name: 'PushPlatform',
  description: 'The kind of device a push token is for.',
});

/**
 * A device's push token. A token names one device, so it is unique per tenant and belongs to
 * the user who registered it last.
 */
@Entity({ tableName: 'push_token' })
@Unique({ name: 'push_token_tenant_token_uq', properties: ['tenantId', 'token'] })
@Index({ name: 'push_token_tenant_user_id_idx', properties: ['tenantId', 'userId'] })
@ObjectType({ description: 'A device registered for push notifications.' })
export class PushToken extends TenantScoped {
  @Property({ type: 'text' })
  @Field(() => String)
  token!: string;

  @Property({ type: 'uuid' })
  @Field(() => String)
  userId!: string;

  @Enum({ items: () => PushPlatform })
  @Field(() => PushPlatform)
  platform!: PushPlatform;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  deviceName?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true })
  appVersion?: string;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true })
  lastUsed?: Date;
}
