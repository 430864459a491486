import { Field, InputType } from 'type-graphql';
import { IsOptional, Length } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { allOf } from '../../../family/field-decorators';
import { NotificationCategory, NotificationType, NOTIFICATION_DOCS } from '../entities/notification';

/** The text fields a notification and an announcement share, each declared once. */
export const TextField = {
  title: () =>
    allOf(
      Field(() => String, { description: NOTIFICATION_DOCS.title }),
      Length(1, 500),
    ),
  body: () =>
    allOf(
      Field(() => String, { nullable: true, description: NOTIFICATION_DOCS.body }),
      IsOptional(),
      Length(0, 10_000),
    ),
  actionUrl: () =>
    allOf(
      Field(() => String, { nullable: true, description: NOTIFICATION_DOCS.actionUrl }),
      IsOptional(),
      Length(0, 2000),
    ),
};

@InputType({ description: 'A notification for one user of the tenant.' })
export class CreateNotificationInput {
  @Field(() => String, { description: "The recipient's e-mail address." })
  @Length(3, 254)
  username!: string;

  @TextField.title()
  title!: string;

  @TextField.body()
  body?: string;

  @Field(() => NotificationCategory, { nullable: true, description: 'Default SYSTEM.' })
  category?: NotificationCategory;

  @Field(() => NotificationType, { nullable: true, description: 'Default INFO.' })
  notificationType?: NotificationType;

  @Field(() => String, { nullable: true, description: "Default: the caller's e-mail." })
  @IsOptional()
  @Length(1, 254)
  sender?: string;

  @Field(() => String, { nullable: true, description: 'A scope of the catalog.' })
  scope?: string;

  @TextField.actionUrl()
  actionUrl?: string;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Any JSON to attach.' })
  metadata?: Record<string, unknown>;
}

@InputType({ description: 'What a recipient may change: whether it is read (either name).' })
export class UpdateNotificationInput {
  @Field(() => Boolean, { nullable: true, description: 'True once read; same as `isRead`.' }) read?: boolean;
  @Field(() => Boolean, { nullable: true, description: NOTIFICATION_DOCS.isRead }) isRead?: boolean;
}
