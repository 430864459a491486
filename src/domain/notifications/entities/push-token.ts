import { Entity, Unique } from '@mikro-orm/core';
import { ObjectType, registerEnumType } from 'type-graphql';
import { TenantScoped } from '../../../entities/tenant-scoped';
import { DateTimeColumn, EnumColumn, TenantIndexes, TextColumn, UuidColumn } from '../../../entities/columns';

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
@TenantIndexes('push_token', 'userId')
@ObjectType({ description: 'A device registered for push notifications.' })
export class PushToken extends TenantScoped {
  @TextColumn({
    nullable: false,
    description: "The device's push token; unique in the tenant, registering moves it to the caller.",
  })
  token!: string;

  @UuidColumn({ nullable: false, description: 'Id of the user the device belongs to.' })
  userId!: string;

  @EnumColumn(() => PushPlatform, { nullable: false, description: PUSH_TOKEN_DOCS.platform })
  platform!: PushPlatform;

  @TextColumn({ description: PUSH_TOKEN_DOCS.deviceName })
  deviceName?: string | null;

  @TextColumn({ description: 'Version of the app that registered it.' })
  appVersion?: string | null;

  @DateTimeColumn({ description: 'When a push was last sent to it.' })
  lastUsed?: Date | null;
}
