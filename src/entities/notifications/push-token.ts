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
  valuesConfig: {
    IOS: { description: 'An Apple device.' },
    ANDROID: { description: 'An Android device.' },
    WEB: { description: 'A web browser.' },
  },
});

/** What PushToken fields mean, shared with the inputs that set them. */
export const PUSH_TOKEN_DOCS = {
  platform: 'Platform of the device.',
  deviceName: 'Name of the device.',
} as const;

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
  @Field(() => String, {
    description: "The device's push token; unique in the tenant, registering moves it to the caller.",
  })
  token!: string;

  @Property({ type: 'uuid' })
  @Field(() => String, { description: 'Id of the user the device belongs to.' })
  userId!: string;

  @Enum({ items: () => PushPlatform })
  @Field(() => PushPlatform, { description: PUSH_TOKEN_DOCS.platform })
  platform!: PushPlatform;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: PUSH_TOKEN_DOCS.deviceName })
  deviceName?: string;

  @Property({ type: 'text', nullable: true })
  @Field(() => String, { nullable: true, description: 'Version of the app that registered it.' })
  appVersion?: string;

  @Property({ type: 'timestamptz', nullable: true })
  @Field(() => DateTimeISOResolver, { nullable: true, description: 'When a push was last sent to it.' })
  lastUsed?: Date;
}
